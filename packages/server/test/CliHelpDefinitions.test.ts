/**
 * `--help` is held to the commands' definitions: the commands documented are the commands defined
 * (nested ones too), each command's documented options are its @effect/cli options, and
 * `serve --help`'s settings are every setting the code reads but those only other commands read.
 */
import { CommandDescriptor } from "@effect/cli"
import type { Usage } from "@effect/cli/Usage"
import { describe, expect, it } from "@effect/vitest"
import { HashMap } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { subcommands } from "../src/Cli.js"
import { commandHelp } from "../src/Cli/HelpTexts.js"
import { serveSettings } from "../src/Cli/ServeSettings.js"

/** The names a usage tree mentions: the command's own name, its options (`--name`, `-n`), its arguments (`<NAME>`). */
const usageNames = (usage: Usage): ReadonlyArray<string> => {
  switch (usage._tag) {
    case "Named":
      return usage.names
    case "Optional":
    case "Repeated":
      return usageNames(usage.usage)
    case "Alternation":
    case "Concat":
      return [...usageNames(usage.left), ...usageNames(usage.right)]
    case "Empty":
    case "Mixed":
      return []
  }
}

const sorted = (names: Iterable<string>) => [...new Set(names)].sort()
const optionsIn = (usage: Usage) => sorted(usageNames(usage).filter((name) => name.startsWith("-")))

/** One defined command by its words after `verbatim`, with its own options and its subcommands'. */
interface Defined {
  readonly words: string
  readonly options: ReadonlyArray<string>
  readonly children: ReadonlyArray<Defined>
}

/**
 * Every command as @effect/cli defines it, read through its descriptor's public `getNames`,
 * `getUsage` and `getSubcommands`.
 * A command without subcommands is its own one "subcommand" there; and the library reads
 * subcommands one level deep, which is as deep as `verbatim`'s go (`replay asks`).
 */
const defined = async (): Promise<ReadonlyArray<Defined>> =>
  Promise.all(Object.values(subcommands).map(async (load) => {
    const command: CommandDescriptor.Command<unknown> = (await load()).descriptor
    const [name] = [...CommandDescriptor.getNames(command)]
    const children = HashMap.toEntries(CommandDescriptor.getSubcommands(command)).filter(([child]) => child !== name)
    return {
      words: name!,
      options: optionsIn(CommandDescriptor.getUsage(command)),
      children: children.map(([child, descriptor]) => ({
        words: `${name} ${child}`,
        options: optionsIn(CommandDescriptor.getUsage(descriptor)),
        children: []
      }))
    }
  }))

const all = (commands: ReadonlyArray<Defined>): ReadonlyArray<Defined> => commands.flatMap((command) => [command, ...all(command.children)])

/**
 * The options a command's help should name: its own, and those every one of its subcommands takes
 * (`import`'s help names the options both exports take).
 */
const shouldDocument = (command: Defined): ReadonlyArray<string> => {
  const [first, ...rest] = command.children.map((child) => child.options)
  const shared = first === undefined ? [] : first.filter((option) => rest.every((options) => options.includes(option)))
  return sorted([...command.options, ...shared])
}

/** Every `--name` (or `-n`) a piece of help text mentions. */
const optionsNamed = (text: string) => sorted(text.match(/(?<![\w-])(?:--[a-z][a-z0-9-]*|-[a-zA-Z](?![\w-]))/g) ?? [])

describe("--help against the command definitions", () => {
  it("documents exactly the commands defined, nested ones too, each under the name the parser knows", async () => {
    const commands = await defined()
    expect({ loaders: sorted(Object.keys(subcommands)), documented: sorted(Object.keys(commandHelp)) }).toEqual({
      loaders: sorted(commands.map((command) => command.words)),
      documented: sorted(all(commands).map((command) => command.words))
    })
  })

  it("documents for each command exactly the options it defines, and its usage line names no other", async () => {
    const commands = all(await defined())
    expect(commands.map((command) => {
      const help = commandHelp[command.words]
      return {
        command: command.words,
        options: optionsNamed((help?.options ?? []).flat().join(" ")),
        unknownInUsage: optionsNamed(help?.usage ?? "").filter((option) => !shouldDocument(command).includes(option))
      }
    })).toEqual(commands.map((command) => ({ command: command.words, options: shouldDocument(command), unknownInUsage: [] })))
  })
})

const root = fileURLToPath(new URL("../../../", import.meta.url))

/** Every source file of every package. */
const sources = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(`${dir}/${entry.name}`) : entry.name.endsWith(".ts") ? [`${dir}/${entry.name}`] : []
  )
const code = readdirSync(`${root}packages`).flatMap((name) => sources(`${root}packages/${name}/src`)).map((file) => readFileSync(file, "utf8"))

/** Settings in the code by their names: `VERBATIM_*`, the providers' and Anthropic's, and where to listen. */
const settingName = /"((?:VERBATIM|TELEGRAM|WHATSAPP|ANTHROPIC)_[A-Z0-9_]+|PORT|HOST)"/g
const read = sorted(code.flatMap((text) => [...text.matchAll(settingName)].map((found) => found[1]!)))

/** Read by the code, but not by `serve`: each with the command or test that reads it. */
const notServe: Readonly<Record<string, string>> = {
  VERBATIM_BATCH_POLL_INTERVAL: "`replay --batch` only: how often the Message Batches API is asked",
  VERBATIM_BATCH_RESUBMITS: "`replay --batch` only: how often a failed batch request is sent again",
  VERBATIM_TEST_DATABASE_URL: "the tests' PostgreSQL server (testkit)"
}

describe("`serve --help`'s settings against the code", () => {
  it("finds every setting a Config reads directly by its name among the names it looks for", () => {
    const direct = sorted(code.flatMap((text) =>
      [...text.matchAll(/Config\.(?!withDefault)\w+(?:\([^()]*\))?\(\s*"([A-Z][A-Z0-9_]*)"/g)].map((found) => found[1]!)
    ))
    expect(direct.filter((name) => !read.includes(name))).toEqual([])
  })

  it("lists every setting the code reads, once, but those only other commands or the tests read", () => {
    const listed = serveSettings.flatMap((setting) => setting.names)
    expect({ listed: [...listed].sort(), notServe: sorted(Object.keys(notServe)) }).toEqual({
      listed: read.filter((name) => !(name in notServe)),
      notServe: read.filter((name) => name in notServe)
    })
  })

  it("shows on each line the names it stands for: each name matches a shown form (… any stem, * any end, [_X] optional), each form a name", () => {
    const forms = (shown: string) =>
      shown.split(", ").map((form) =>
        new RegExp(`^${form.replace(/[.+?^${}()|\\]/g, "\\$&").replace(/\[([^\]]*)\]/g, "(?:$1)?").replace(/[…*]/g, "[A-Z0-9_]*")}$`)
      )
    expect(serveSettings.map((setting) => ({
      shown: setting.shown,
      namesNotShown: setting.names.filter((name) => !forms(setting.shown).some((form) => form.test(name))),
      formsForNothing: forms(setting.shown).filter((form) => !setting.names.some((name) => form.test(name))).map(String)
    }))).toEqual(serveSettings.map((setting) => ({ shown: setting.shown, namesNotShown: [], formsForNothing: [] })))
  })
})

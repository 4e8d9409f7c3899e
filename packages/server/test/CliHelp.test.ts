/** Every command's `--help`: its own usage, at most 100 columns a line, an example; `serve`'s lists its settings. */
import { NodeContext } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Console, Effect } from "effect"
import { run, subcommands } from "../src/Cli.js"
import { commandHelp } from "../src/Cli/HelpTexts.js"
import { runCli } from "./CliHarness.js"

/** What `verbatim ARGS` prints, run in this process. */
const printed = (args: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const base = yield* Console.consoleWith(Effect.succeed)
    const console: Console.Console = { ...base, log: (...a) => Effect.sync(() => void lines.push(a.join(" "))) }
    yield* Effect.withConsole(run(["node", "verbatim", ...args]), console).pipe(Effect.provide(NodeContext.layer))
    return lines.join("\n")
  })

const nested = Object.keys(commandHelp).filter((name) => name.includes(" "))
const commands = [...Object.keys(subcommands), ...nested]

describe("--help", () => {
  it.effect("for the root and every command: its usage first, no line past 100 columns, an Example line", () =>
    Effect.gen(function*() {
      const checked = []
      for (const command of ["", ...commands]) {
        const text = yield* printed([...command.split(" ").filter((w) => w !== ""), "--help"])
        const lines = text.split("\n")
        checked.push({
          command,
          usage: lines[0]?.startsWith(`Usage: verbatim ${command === "" ? "<command>" : command}`),
          tooWide: lines.filter((line) => line.length > 100),
          examples: lines.filter((line) => line.startsWith("Example: ")).length
        })
      }
      expect(checked).toEqual(["", ...commands].map((command) => ({ command, usage: true, tooWide: [], examples: 1 })))
    }))

  it.effect("`serve --help` lists the settings it reads, each with its meaning", () =>
    Effect.gen(function*() {
      const text = yield* printed(["serve", "--help"])
      const settings = text.split("\n\n").find((block) => block.startsWith("Settings"))?.split("\n") ?? []
      expect(settings.slice(0, 6)).toEqual([
        "Settings (environment; README.md has the detail):",
        "  PORT, HOST                            where to listen (8080 on 127.0.0.1)",
        "  VERBATIM_DATA_DIR                     the SQLite store and the API token (./data)",
        "  VERBATIM_DATABASE_URL                 postgres://… selects PostgreSQL",
        "  VERBATIM_SQLITE_SYNCHRONOUS           FULL survives a power loss; NORMAL is faster",
        "  VERBATIM_LOG_FORMAT                   auto, json or text (as --log-format)"
      ])
      // Every setting the start report names is among them.
      for (const name of ["TELEGRAM_WEBHOOK_SECRET", "WHATSAPP_APP_SECRET", "ANTHROPIC_API_KEY", "VERBATIM_TRANSCRIBE_URL", "VERBATIM_OPERATOR_READS"]) {
        expect([name, settings.some((line) => line.includes(name))]).toEqual([name, true])
      }
    }))

  it.live("is the same from the command line, with `-h` and `help` too", () =>
    Effect.gen(function*() {
      const [dashed, short, word] = [yield* runCli(["serve", "--help"], {}), yield* runCli(["serve", "-h"], {}), yield* runCli(["help", "serve"], {})]
      expect(dashed).toEqual({ code: 0, stdout: `${yield* printed(["serve", "--help"])}\n`, stderr: "" })
      expect([short, word]).toEqual([dashed, dashed])
    }), 60_000)
})

/**
 * `--help` for the root and every command: usage, purpose, options, an example, in at most 100
 * columns (@effect/cli's own help lists its built-in options on every command and runs its usage
 * lines past the terminal's width).
 */
import { commandHelp, type CommandHelp } from "./HelpTexts.js"
import { serveSettings } from "./ServeSettings.js"

const settingLines = serveSettings.map((setting) => [setting.shown, setting.meaning] as const)

/** `pairs` as two columns, the first padded to the widest (at most `cap`). */
const columns = (pairs: ReadonlyArray<readonly [string, string]>, cap: number): ReadonlyArray<string> => {
  const width = Math.min(cap, Math.max(...pairs.map(([name]) => name.length)))
  return pairs.flatMap(([name, meaning]) =>
    name.length > width ? [`  ${name}`, `  ${" ".repeat(width)}  ${meaning}`] : [`  ${name.padEnd(width)}  ${meaning}`]
  )
}

const render = (name: string, help: CommandHelp): string =>
  [
    `Usage: ${help.usage}`,
    "",
    help.summary,
    ...(help.options.length === 0 ? [] : ["", "Options:", ...columns(help.options, 24)]),
    ...(name === "serve" ? ["", "Settings (environment; README.md has the detail):", ...columns(settingLines, 36)] : []),
    "",
    `Example: ${help.example}`
  ].join("\n")

const root = (): string =>
  [
    "Usage: verbatim <command> [options]   (verbatim <command> --help for one)",
    "",
    "Verbatim files forwarded messages as notes about people, verbatim.",
    "",
    "Commands:",
    ...columns(Object.entries(commandHelp).filter(([name]) => !name.includes(" ")).map(([name, help]) => [name, help.summary]), 12),
    "",
    "Example: verbatim serve"
  ].join("\n")

/** Whether a command line asks for help. */
export const asksForHelp = (args: ReadonlyArray<string>): boolean => args.includes("--help") || args.includes("-h")

/** The help for a command line: that of the longest run of its words naming a command, else the root's. */
export const helpFor = (args: ReadonlyArray<string>): string => {
  const words = args.filter((arg) => !arg.startsWith("-"))
  for (let n = words.length; n > 0; n--) {
    const name = words.slice(0, n).join(" ")
    const help = commandHelp[name]
    if (help !== undefined) return render(name, help)
  }
  return root()
}

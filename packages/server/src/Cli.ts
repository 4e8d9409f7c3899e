/**
 * The `verbatim` command line: one subcommand per module under `Cli/`, each given the services it
 * needs. Failures print one line to stderr naming what went wrong and what to do, and exit 1;
 * logs go to stderr (warnings and worse), so stdout carries only the command's result.
 */
import { Command, ValidationError } from "@effect/cli"
import * as Store from "@verbatim/projections/Store"
import { version } from "@verbatim/domain/Version"
import { Cause, ConfigError, Console, Effect, Layer, Logger, LogLevel } from "effect"
import { CliError } from "./Cli/CliError.js"
import { asksForHelp, helpFor } from "./Cli/Help.js"
import { nearest } from "./Cli/Suggest.js"

/** Logs of warnings and worse, as logfmt on stderr: stdout carries only a command's result. */
const quietLogs = Layer.merge(
  Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.logfmtLogger)),
  Logger.minimumLogLevel(LogLevel.Warning)
)

const quiet = <Name extends string, R, E, A>(command: Command.Command<Name, R, E, A>) => Command.provide(command, quietLogs)

/**
 * Every subcommand, each wired to its services and loaded only when asked for: a command's module
 * brings in what it runs on (the HTTP server, the planner and its SDK, the media readers), and
 * compiling all of it at every start cost the commands that need none of it about a fifth of
 * their start-up (`verbatim rebuild` on an empty store 0.77–0.85 s with every command loaded,
 * 0.61–0.66 s with its own; BENCHMARKS.md, "The command line's start-up"). Commands that only read
 * open the store read-only (`layerConfigReadOnly`); `serve` keeps the server's own logging.
 */
export const subcommands = {
  serve: () => import("./Cli/Serve.js").then((m) => m.command),
  rebuild: () => import("./Cli/Rebuild.js").then((m) => m.command.pipe(Command.provide(Store.layerConfig), quiet)),
  replay: () => import("./Cli/Replay.js").then((m) => m.command.pipe(quiet)),
  eval: () => import("./Cli/Eval.js").then((m) => m.command.pipe(quiet)),
  audit: () => import("./Cli/Audit.js").then((m) => m.command.pipe(Command.provide(Store.layerConfigReadOnly), quiet)),
  accounting: () => import("./Cli/Accounting.js").then((m) => m.command.pipe(Command.provide(Store.layerConfigReadOnly), quiet)),
  import: () =>
    Promise.all([import("./Cli/Import.js"), import("./TimeZones.js")]).then(([m, zones]) =>
      m.command.pipe(Command.provide(zones.TimeZones.layerConfig.pipe(Layer.provideMerge(Store.layerConfig))), quiet)),
  reconcile: () => import("./Cli/Reconcile.js").then((m) => m.command.pipe(Command.provide(Store.layerConfigReadOnly), quiet)),
  retry: () =>
    Promise.all([import("./Cli/Retry.js"), import("./Cli/Layers.js")]).then(([m, layers]) =>
      m.command.pipe(Command.provide(layers.PlanJobLayer), quiet)),
  retranscribe: () =>
    Promise.all([import("./Cli/Retranscribe.js"), import("./Cli/Layers.js")]).then(([m, layers]) =>
      m.command.pipe(Command.provide(layers.MediaWorkerLayer), quiet)),
  events: () => import("./Cli/Events.js").then((m) => m.command.pipe(Command.provide(Store.layerConfigReadOnly), quiet)),
  demo: () => import("./Cli/Demo.js").then((m) => m.command.pipe(quiet)),
  backup: () => import("./Cli/Backup.js").then((m) => m.command.pipe(quiet)),
  restore: () => import("./Cli/Restore.js").then((m) => m.command.pipe(quiet)),
  export: () =>
    Promise.all([import("./Cli/Export.js"), import("./TimeZones.js")]).then(([m, zones]) =>
      m.command.pipe(Command.provide(zones.TimeZones.layerConfig.pipe(Layer.provideMerge(Store.layerConfigReadOnly))), quiet)),
  forget: () =>
    Promise.all([import("./Cli/Forget.js"), import("./IdGenerator.js")]).then(([m, ids]) =>
      m.command.pipe(Command.provide(ids.IdGenerator.layer.pipe(Layer.provideMerge(Store.layerConfig))), quiet))
}

export type Name = keyof typeof subcommands
export type Subcommand = Awaited<ReturnType<(typeof subcommands)[Name]>>

const isName = (word: string | undefined): word is Name => word !== undefined && Object.hasOwn(subcommands, word)

/**
 * The subcommands a command line needs: the one its first argument names, or every one (for the
 * root's help, a misspelt command, or an option before the command) so the parser sees them all.
 */
export const subcommandsFor = (args: ReadonlyArray<string>): ReadonlyArray<Name> =>
  isName(args[0]) ? [args[0]] : Object.keys(subcommands) as Array<Name>

/** The root command over the given subcommands. */
const rootOf = (loaded: ReadonlyArray<Subcommand>) =>
  Command.make("verbatim").pipe(
    Command.withDescription("Verbatim: files forwarded messages as notes about people, verbatim"),
    Command.withSubcommands(loaded as [Subcommand, ...Array<Subcommand>])
  )

/** An error's own message or, when it has none (the HTTP server's `ServeError`), its cause's. */
const messageOf = (error: object): string => {
  const own = "message" in error && typeof error.message === "string" ? error.message : ""
  if (own !== "") return own
  return "cause" in error && error.cause instanceof Error ? error.cause.message : String(error)
}

/** One line for a failure; command errors already say what to do. */
export const describeFailure = (error: unknown): string => {
  if (ValidationError.isValidationError(error)) return ""
  if (ConfigError.isConfigError(error)) return `configuration: ${String(error)}; see the configuration table in README.md`
  if (typeof error === "object" && error !== null && "_tag" in error) {
    const message = messageOf(error)
    if (error._tag === "CliError" || error._tag === "NoModelError") return message
    if (error._tag === "ServeError") return `cannot listen: ${message}; set PORT or HOST to listen elsewhere`
    // The store's own errors are written to be read (a connection failure names where and why).
    if (error._tag === "SqlError" && message.startsWith("cannot ")) return message
    return `${String(error._tag)}: ${message}`
  }
  return String(error)
}

/** A first word that names no command: what it most likely meant, and where the list is. */
const unknownCommand = (word: string) => {
  const meant = nearest(word, Object.keys(subcommands))
  return new CliError({
    message: `there is no command "${word}"${meant === null ? "" : `: did you mean "${meant}"?`} (\`verbatim --help\` lists them)`
  })
}

/** Run the CLI on `argv` as Node gives it (`process.argv`: node, script, then the arguments). */
export const run = (given: ReadonlyArray<string>) => {
  // `verbatim help` is `verbatim --help`.
  const argv = given[2] === "help" ? [...given.slice(0, 2), "--help", ...given.slice(3)] : given
  return (argv[2] !== undefined && !argv[2].startsWith("-") && !isName(argv[2]) ? Effect.fail(unknownCommand(argv[2])) : Effect.void).pipe(
    Effect.zipRight(
      asksForHelp(argv.slice(2))
        ? Console.log(helpFor(argv.slice(2)))
        : Effect.promise(() => Promise.all(subcommandsFor(argv.slice(2)).map((name) => subcommands[name]()))).pipe(
          Effect.flatMap((loaded) => Command.run(rootOf(loaded), { name: "verbatim", version })(argv))
        )
    ),
    Effect.tapErrorCause((cause) =>
      Cause.isFailure(cause)
        ? Effect.forEach(Cause.failures(cause), (e) => {
          const line = describeFailure(e)
          return line === "" ? Effect.void : Console.error(`verbatim: ${line}`)
        })
        : Console.error(`verbatim: unexpected failure\n${Cause.pretty(cause)}`)
    )
  )
}

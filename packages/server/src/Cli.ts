/**
 * The `verbatim` command line: one subcommand per module under `Cli/`, each given the services it
 * needs. Failures print one line to stderr naming what went wrong and what to do, and exit 1;
 * logs go to stderr (warnings and worse), so stdout carries only the command's result.
 */
import { Command, ValidationError } from "@effect/cli"
import { Cause, ConfigError, Console, Effect, Layer, Logger, LogLevel } from "effect"
import * as Accounting from "./Cli/Accounting.js"
import * as Audit from "./Cli/Audit.js"
import * as Backup from "./Cli/Backup.js"
import * as Demo from "./Cli/Demo.js"
import * as Eval from "./Cli/Eval.js"
import * as Events from "./Cli/Events.js"
import * as Export from "./Cli/Export.js"
import * as Import from "./Cli/Import.js"
import { MediaWorkerLayer, PlanJobLayer, ReadStoreLayer, StoreLayer } from "./Cli/Layers.js"
import * as Rebuild from "./Cli/Rebuild.js"
import * as Replay from "./Cli/Replay.js"
import * as Restore from "./Cli/Restore.js"
import * as Retranscribe from "./Cli/Retranscribe.js"
import * as Retry from "./Cli/Retry.js"
import * as Serve from "./Cli/Serve.js"

/** Logs of warnings and worse, as logfmt on stderr: stdout carries only a command's result. */
const quietLogs = Layer.merge(
  Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.logfmtLogger)),
  Logger.minimumLogLevel(LogLevel.Warning)
)

const quiet = <Name extends string, R, E, A>(command: Command.Command<Name, R, E, A>) => Command.provide(command, quietLogs)

/** The root command with every subcommand wired to its services; `serve` keeps the server's own logging. */
export const root = Command.make("verbatim").pipe(
  Command.withDescription("Verbatim: files forwarded messages as notes about people, verbatim"),
  Command.withSubcommands([
    Serve.command,
    Rebuild.command.pipe(Command.provide(StoreLayer), quiet),
    Replay.command.pipe(quiet),
    Eval.command.pipe(quiet),
    Audit.command.pipe(Command.provide(ReadStoreLayer), quiet),
    Accounting.command.pipe(Command.provide(ReadStoreLayer), quiet),
    Import.command.pipe(Command.provide(StoreLayer), quiet),
    Retry.command.pipe(Command.provide(PlanJobLayer), quiet),
    Retranscribe.command.pipe(Command.provide(MediaWorkerLayer), quiet),
    Events.command.pipe(Command.provide(ReadStoreLayer), quiet),
    Demo.command.pipe(quiet),
    Backup.command.pipe(quiet),
    Restore.command.pipe(quiet),
    Export.command.pipe(Command.provide(ReadStoreLayer), quiet)
  ])
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

/** Run the CLI on `argv` as Node gives it (`process.argv`: node, script, then the arguments). */
export const run = (argv: ReadonlyArray<string>) =>
  Command.run(root, { name: "verbatim", version: "0.1.0" })(argv).pipe(
    Effect.tapErrorCause((cause) =>
      Cause.isFailure(cause)
        ? Effect.forEach(Cause.failures(cause), (e) => {
          const line = describeFailure(e)
          return line === "" ? Effect.void : Console.error(`verbatim: ${line}`)
        })
        : Console.error(`verbatim: unexpected failure\n${Cause.pretty(cause)}`)
    )
  )

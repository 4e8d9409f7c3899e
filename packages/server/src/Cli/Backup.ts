/**
 * `verbatim backup FILE`: on SQLite, a consistent copy of the store written to the new file FILE,
 * safe while the server takes webhooks; on PostgreSQL, the `pg_dump` command to run (alone on
 * stdout, so a script can run it), since PostgreSQL's own tool takes its backups.
 */
import { Args, Command } from "@effect/cli"
import * as SqliteBackup from "@verbatim/projections/SqliteBackup"
import * as Store from "@verbatim/projections/Store"
import { Console, DateTime, Effect } from "effect"
import { CliError } from "./CliError.js"
import { pgDump, pgTarget } from "./PgCommands.js"

const explain = (error: SqliteBackup.SqliteBackupError): CliError => {
  switch (error.reason) {
    case "NoDatabase":
      return new CliError({ message: `${error.message}: nothing to back up; set VERBATIM_DATA_DIR to the server's data directory` })
    case "TargetExists":
      return new CliError({ message: `${error.message}; back up to a new file` })
    default:
      return new CliError({ message: `${error.message}; nothing was backed up` })
  }
}

export const command = Command.make("backup", { file: Args.file({ name: "FILE" }) }, ({ file }) =>
  Effect.gen(function*() {
    const at = yield* Store.location
    if (at._tag === "Pg") {
      const target = yield* pgTarget(at.url)
      yield* Console.error("PostgreSQL is backed up by pg_dump (one consistent snapshot while the server runs); run:")
      return yield* Console.log(pgDump(target, file))
    }
    const summary = yield* SqliteBackup.backup(at.filename, file).pipe(Effect.mapError(explain))
    yield* Console.log(
      `backed up ${summary.events} event(s), through log position ${summary.lastPosition}, from ${at.filename} to ${file}; ` +
        (summary.newestForgetting === null
          ? "it includes no forgetting"
          : `the newest forgetting it includes was recorded at ${DateTime.formatIso(DateTime.unsafeMake(summary.newestForgetting))}`) +
        " (words forgotten later stay in this copy: it is yours to keep or destroy)"
    )
  })).pipe(Command.withDescription("Copy the store to a new file while the server runs (PostgreSQL: print the pg_dump command)"))

/**
 * `verbatim restore FILE`: put a backup made by `verbatim backup` in place as the store of a data
 * directory that has no database yet; refuses one that has. On PostgreSQL, the `pg_restore`
 * command to run into an empty database (alone on stdout).
 */
import { Args, Command } from "@effect/cli"
import * as SqliteBackup from "@verbatim/projections/SqliteBackup"
import * as Store from "@verbatim/projections/Store"
import { Config, Console, Effect, Option } from "effect"
import { existsSync, mkdirSync } from "node:fs"
import { join } from "node:path"
import { CliError } from "./CliError.js"
import { pgRestore, pgTarget } from "./PgCommands.js"

const explain = (dataDir: string) => (error: SqliteBackup.SqliteBackupError): CliError => {
  switch (error.reason) {
    case "TargetExists":
      return new CliError({
        message: `${dataDir} already has a database (${error.message}); restore into an empty data directory (set VERBATIM_DATA_DIR)`
      })
    default:
      return new CliError({ message: `${error.message}; nothing was restored` })
  }
}

/** Said after a restore into a data directory that has no API token. */
export const tokenNotice = (dataDir: string) =>
  `the API token is not part of a backup: copy api-token from the old data directory into ${dataDir}, or set ` +
  "VERBATIM_API_TOKEN to it; otherwise `verbatim serve` makes a new one, and every sign-in made with the old one ends"

export const command = Command.make("restore", { file: Args.file({ name: "FILE", exists: "yes" }) }, ({ file }) =>
  Effect.gen(function*() {
    const at = yield* Store.location
    if (at._tag === "Pg") {
      const target = yield* pgTarget(at.url)
      yield* Console.error("PostgreSQL is restored by pg_restore, into an empty database; run:")
      return yield* Console.log(pgRestore(target, file))
    }
    yield* Effect.try({
      try: () => mkdirSync(at.dataDir, { recursive: true }),
      catch: (error) => new CliError({ message: `cannot create ${at.dataDir}: ${error instanceof Error ? error.message : String(error)}` })
    })
    const summary = yield* SqliteBackup.restore(file, at.filename).pipe(Effect.mapError(explain(at.dataDir)))
    yield* Console.log(`restored ${summary.events} event(s), through log position ${summary.lastPosition}, into ${at.filename}`)
    // The token is kept beside the database, not in it: say so while the old one can still be brought along.
    const token = yield* Config.option(Config.redacted("VERBATIM_API_TOKEN"))
    if (Option.isNone(token) && !existsSync(join(at.dataDir, "api-token"))) yield* Console.error(tokenNotice(at.dataDir))
  })).pipe(Command.withDescription("Restore a backup into an empty data directory (PostgreSQL: print the pg_restore command)"))

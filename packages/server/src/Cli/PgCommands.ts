/**
 * The `pg_dump` and `pg_restore` command lines for the configured PostgreSQL URL: PostgreSQL's
 * own tools take its backups, so `verbatim backup` and `restore` print what to run. The password
 * is never printed; the tools ask for it or read PGPASSWORD or ~/.pgpass.
 */
import { Effect, Redacted } from "effect"
import { CliError } from "./CliError.js"

/** Where a PostgreSQL URL points, without its password. */
export interface PgTarget {
  readonly host: string
  readonly port: string
  readonly user: string | null
  readonly database: string | null
  readonly sslmode: string | null
}

/** Read host, port, user, database and sslmode from the URL (PostgreSQL's defaults where it names none). */
export const pgTarget = (url: Redacted.Redacted): Effect.Effect<PgTarget, CliError> =>
  Effect.try({
    try: () => {
      const parsed = new URL(Redacted.value(url))
      const user = decodeURIComponent(parsed.username)
      const database = decodeURIComponent(parsed.pathname.replace(/^\//, ""))
      return {
        host: parsed.searchParams.get("host") ?? (parsed.hostname.replace(/^\[(.*)\]$/, "$1") || "localhost"),
        port: parsed.searchParams.get("port") ?? (parsed.port || "5432"),
        user: user === "" ? null : user,
        database: database === "" ? null : database,
        sslmode: parsed.searchParams.get("sslmode")
      }
    },
    catch: () =>
      new CliError({
        message: "cannot read host, port and database from VERBATIM_DATABASE_URL; pass the URL to pg_dump as --dbname instead"
      })
  })

/** A word as a POSIX shell reads it back unchanged. */
const quote = (word: string): string => /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`

const connection = (target: PgTarget): Array<string> => [
  `--host=${quote(target.host)}`,
  `--port=${quote(target.port)}`,
  ...(target.user === null ? [] : [`--username=${quote(target.user)}`]),
  ...(target.database === null ? [] : [`--dbname=${quote(target.database)}`])
]

const line = (target: PgTarget, words: ReadonlyArray<string>): string =>
  [...(target.sslmode === null ? [] : [`PGSSLMODE=${quote(target.sslmode)}`]), ...words].join(" ")

/** `pg_dump` to `file` in the custom format (consistent while the server writes: one snapshot). */
export const pgDump = (target: PgTarget, file: string): string =>
  line(target, ["pg_dump", "--format=custom", ...connection(target), `--file=${quote(file)}`])

/** `pg_restore` of `file` into the (empty) configured database, all or nothing. */
export const pgRestore = (target: PgTarget, file: string): string =>
  line(target, ["pg_restore", "--exit-on-error", "--single-transaction", "--no-owner", ...connection(target), quote(file)])

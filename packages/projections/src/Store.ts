/**
 * The store's layers: SQLite (embedded default) or PostgreSQL, migrated at start (or, for a
 * command that only reads, SQLite opened read-only when its schema is current), with the inline
 * projections wired into every append. Each provides the EventStore, the read model, the leases
 * and the SqlClient. A data directory or database this process may not use is one line.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import type { MigrationError } from "@effect/sql/Migrator"
import { SqlClient } from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { Config, Effect, Layer, Option, Redacted, Stream } from "effect"
import * as ConfigError from "effect/ConfigError"
import { existsSync, mkdirSync } from "node:fs"
import { join } from "node:path"
import * as Dialects from "./internal/Dialect.js"
import { migrate, table } from "./Migrations.js"
import * as SqliteAccess from "./SqliteAccess.js"
import { appliedMigration, latestMigration, layerSqlite, layerSqliteReadOnly, type SqliteOptions } from "./SqliteStore.js"
import type { Services } from "./StoreOn.js"
import { storeOn } from "./StoreOn.js"

export interface PgOptions {
  /** Pool size; match what the server accepts (PGlite's socket server takes one connection). */
  readonly maxConnections?: number
  /**
   * Tell other instances on the database what this one commits (`NOTIFY`), and hear theirs on a
   * connection of its own (`LISTEN`); default true. Off where no second connection exists (PGlite).
   */
  readonly acrossInstances?: boolean
}

/** The channel instances announce their commits' topics on. */
const channel = "verbatim_commits"

export type { Services } from "./StoreOn.js"

export { layerSqlite, logFlush, layerSqliteReadOnly, type SqliteOptions, type SqliteSynchronous } from "./SqliteStore.js"
import type { SqliteSynchronous } from "./SqliteStore.js"

/**
 * A failed connection said in one line: where (host, port, database; never the password), the
 * driver's reason, and what to check.
 */
export const connectionFailure = (url: string, cause: unknown): string => {
  let where = "the configured URL"
  try {
    const parsed = new URL(url)
    where = `${parsed.hostname || "localhost"}:${parsed.port || "5432"}, database ${decodeURIComponent(parsed.pathname.slice(1)) || "(default)"}`
  } catch {
    // An unparsable URL is named as configured; the driver's reason says what is wrong with it.
  }
  const reason = cause instanceof AggregateError && cause.errors.length > 0
    ? cause.errors.map((e) => (e instanceof Error ? e.message : String(e))).join("; ")
    : cause instanceof Error && cause.message !== ""
    ? cause.message
    : String(cause)
  return `cannot connect to PostgreSQL at ${where}: ${reason}; check VERBATIM_DATABASE_URL and that the server accepts connections`
}

/**
 * `migrate` on PostgreSQL, where instances may start together on a new database: the migrator
 * creates its table when a lookup finds none, and the second to create it fails. The table is
 * made here first, one instance at a time; the migrator then locks it to run the migrations.
 */
const migratePg = Effect.flatMap(SqlClient, (sql) =>
  sql.withTransaction(Effect.zipRight(
    sql`SELECT pg_advisory_xact_lock(hashtext(${table}))`,
    sql`CREATE TABLE IF NOT EXISTS ${sql(table)} (
      migration_id integer primary key, created_at timestamp with time zone not null default now(), name text not null)`
  ))).pipe(Effect.zipRight(migrate))

/** PostgreSQL at a URL. */
export const layerPg = (
  url: string | Redacted.Redacted,
  options: PgOptions = {}
): Layer.Layer<Services, SqlError | MigrationError | ConfigError.ConfigError> => {
  const redacted = typeof url === "string" ? Redacted.make(url) : url
  const client = PgClient.layer({
    url: redacted,
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections })
  }).pipe(
    Layer.mapError((error) => new SqlError({ cause: error.cause, message: connectionFailure(Redacted.value(redacted), error.cause) }))
  )
  const store = options.acrossInstances === false ? storeOn(Dialects.pg, migratePg) : Layer.unwrapEffect(
    Effect.map(PgClient.PgClient, (pg) =>
      storeOn(Dialects.pg, migratePg, {
        across: {
          // `pg_notify` rather than the client's `notify`, whose `NOTIFY channel, $1` the server refuses
          // (NOTIFY takes no parameters).
          announce: (topics) => Effect.asVoid(pg`SELECT pg_notify(${channel}, ${topics.join(",")})`),
          hear: Stream.map(pg.listen(channel), (payload) => payload.split(","))
        }
      }))
  )
  return store.pipe(Layer.provideMerge(client))
}

/** The settings that pick and tune the backend. */
export const config = Config.all({
  url: Config.option(Config.redacted("VERBATIM_DATABASE_URL")),
  dataDir: Config.string("VERBATIM_DATA_DIR").pipe(Config.withDefault("./data")),
  synchronous: Config.literal("FULL", "NORMAL")("VERBATIM_SQLITE_SYNCHRONOUS").pipe(Config.withDefault("FULL" as const))
})

const isPostgresUrl = (url: Redacted.Redacted) => /^postgres(ql)?:\/\//.test(Redacted.value(url))

/** The SQLite file in a data directory. */
export const sqliteFile = (dataDir: string): string => join(dataDir, "verbatim.db")

/** Where the configured store lives: a PostgreSQL URL, or a SQLite file in a data directory. */
export type Location =
  | { readonly _tag: "Pg"; readonly url: Redacted.Redacted }
  | { readonly _tag: "Sqlite"; readonly dataDir: string; readonly filename: string; readonly synchronous: SqliteSynchronous }

/** The configured store's location; a URL that is not PostgreSQL's is a configuration error. */
export const location: Effect.Effect<Location, ConfigError.ConfigError> = Effect.gen(function*() {
  const settings = yield* config
  if (Option.isSome(settings.url) && isPostgresUrl(settings.url.value)) return { _tag: "Pg", url: settings.url.value } as const
  if (Option.isSome(settings.url)) {
    return yield* Effect.fail(ConfigError.InvalidData(["VERBATIM_DATABASE_URL"], "expected a postgres:// or postgresql:// URL"))
  }
  return { _tag: "Sqlite", dataDir: settings.dataDir, filename: sqliteFile(settings.dataDir), synchronous: settings.synchronous } as const
})

/** What a command does with the store: `read` opens SQLite read-only when its schema is current. */
export type Access = "read" | "write"

/** How a writable SQLite store runs, as `layerSqlite` takes it (PostgreSQL ignores it). */
export type ConfigOptions = Pick<SqliteOptions, "backgroundCheckpoints">

/** SQLite under the data directory, opened as `access` allows; a directory or file it may not use is one line. */
const sqliteFromConfig = (dataDir: string, synchronous: "FULL" | "NORMAL", access: Access, options: ConfigOptions) =>
  Effect.gen(function*() {
    const filename = sqliteFile(dataDir)
    const opening = (readOnly: boolean) =>
      Effect.logInfo("event store: SQLite").pipe(Effect.annotateLogs({ filename, synchronous, readOnly }))
    if (access === "read" && existsSync(filename)) {
      const applied = yield* appliedMigration(filename)
      if (applied >= latestMigration) return yield* Effect.as(opening(true), layerSqliteReadOnly({ filename }))
      const refusal = SqliteAccess.cannotWrite(filename)
      if (refusal !== undefined) {
        return yield* new SqlError({ message: SqliteAccess.schemaBehind(filename, applied, latestMigration, refusal) })
      }
    }
    yield* Effect.try({
      try: () => mkdirSync(dataDir, { recursive: true }),
      catch: (error) => {
        const refusal = SqliteAccess.cannotCreate(dataDir, error)
        // A path in the way (a file, say) is a configuration mistake; a permission is the directory's.
        return refusal === undefined
          ? ConfigError.InvalidData(["VERBATIM_DATA_DIR"], `cannot use ${dataDir} for the data: ${error instanceof Error ? error.message : String(error)}`)
          : new SqlError({ cause: error, message: refusal })
      }
    })
    const refusal = SqliteAccess.cannotWrite(filename)
    if (refusal !== undefined) return yield* new SqlError({ message: refusal })
    yield* opening(false)
    return layerSqlite({ filename, synchronous, backgroundCheckpoints: options.backgroundCheckpoints === true })
  })

/**
 * The store chosen by configuration: `VERBATIM_DATABASE_URL=postgres://…` selects PostgreSQL;
 * unset, SQLite in `VERBATIM_DATA_DIR` (default ./data) at `VERBATIM_SQLITE_SYNCHRONOUS` (default FULL).
 * With `read`, a current SQLite database is opened read-only (so a read-only file serves), and
 * one behind is migrated when it may be written.
 */
export const layerConfigFor = (
  access: Access,
  options: ConfigOptions = {}
): Layer.Layer<Services, SqlError | MigrationError | ConfigError.ConfigError> =>
  Layer.unwrapEffect(
    Effect.gen(function*() {
      const at = yield* location
      if (at._tag === "Pg") {
        yield* Effect.logInfo("event store: PostgreSQL")
        return layerPg(at.url)
      }
      return yield* sqliteFromConfig(at.dataDir, at.synchronous, access, options)
    })
  )

/** The configured store, opened for writing (every command that appends). */
export const layerConfig = layerConfigFor("write")

/**
 * The configured store as the server opens it: for writing, and on SQLite with the log
 * checkpointed from a worker thread, so a capture's commit seldom copies it on the event loop.
 * The commands leave it out: they are batch work, where a checkpoint's pause keeps no request
 * waiting, and a rebuild is one long transaction the worker cannot checkpoint before it commits;
 * the thread would only add to their memory (10 MB at a 300,000-event rebuild's peak).
 */
export const layerServing = layerConfigFor("write", { backgroundCheckpoints: true })

/** The configured store for commands that only read (`events`, `audit`, `accounting`). */
export const layerConfigReadOnly = layerConfigFor("read")

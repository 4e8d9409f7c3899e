/**
 * The store's layers: SQLite (embedded default) or PostgreSQL, migrated at start, with the
 * inline projections wired into every append. Each provides the EventStore, the read model, the
 * leases and the SqlClient.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import type { MigrationError } from "@effect/sql/Migrator"
import { SqlClient } from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { Config, Effect, Layer, Option, Redacted } from "effect"
import * as ConfigError from "effect/ConfigError"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { EventStore } from "./EventStore.js"
import type { Dialect } from "./internal/Dialect.js"
import * as Dialects from "./internal/Dialect.js"
import { migrate } from "./internal/Migrations.js"
import { Leases } from "./Leases.js"
import * as Projector from "./Projections/Projector.js"
import * as ReadModel from "./ReadModel.js"
import * as SqlEventStore from "./SqlEventStore.js"

/** `FULL` survives power loss; `NORMAL` in WAL mode survives only a process crash. */
export type SqliteSynchronous = "FULL" | "NORMAL"

export interface SqliteOptions {
  readonly filename: string
  readonly synchronous?: SqliteSynchronous
  /** How long a second process waits for the write lock, in milliseconds. */
  readonly busyTimeout?: number
}

export interface PgOptions {
  /** Pool size; match what the server accepts (PGlite's socket server takes one connection). */
  readonly maxConnections?: number
}

/** What every store layer provides. */
export type Services = EventStore | ReadModel.ReadModel | Leases | SqlClient

const storeOn = (dialect: Dialect, prepare: Effect.Effect<void, SqlError, SqlClient>) =>
  Layer.provideMerge(
    Layer.merge(ReadModel.layer, Leases.layer),
    Layer.scoped(
      EventStore,
      Effect.gen(function*() {
        yield* prepare
        yield* migrate
        return yield* SqlEventStore.make({ dialect, project: Projector.apply })
      })
    )
  )

/** SQLite in one file: WAL (set by the client), a busy timeout, `synchronous` FULL unless told otherwise. */
export const layerSqlite = (options: SqliteOptions): Layer.Layer<Services, SqlError | MigrationError | ConfigError.ConfigError> => {
  const prepare = Effect.gen(function*() {
    const sql = yield* SqlClient
    yield* sql.unsafe(`PRAGMA busy_timeout = ${Math.trunc(options.busyTimeout ?? 5000)}`)
    yield* sql.unsafe(`PRAGMA synchronous = ${options.synchronous === "NORMAL" ? "NORMAL" : "FULL"}`)
  })
  return storeOn(Dialects.sqlite, prepare).pipe(
    Layer.provideMerge(SqliteClient.layer({ filename: options.filename }))
  )
}

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

/** PostgreSQL at a URL. */
export const layerPg = (
  url: string | Redacted.Redacted,
  options: PgOptions = {}
): Layer.Layer<Services, SqlError | MigrationError> => {
  const redacted = typeof url === "string" ? Redacted.make(url) : url
  const client = PgClient.layer({
    url: redacted,
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections })
  }).pipe(
    Layer.mapError((error) => new SqlError({ cause: error.cause, message: connectionFailure(Redacted.value(redacted), error.cause) }))
  )
  return storeOn(Dialects.pg, Effect.void).pipe(Layer.provideMerge(client))
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

/**
 * The store chosen by configuration: `VERBATIM_DATABASE_URL=postgres://…` selects PostgreSQL;
 * unset, SQLite in `VERBATIM_DATA_DIR` (default ./data) at `VERBATIM_SQLITE_SYNCHRONOUS` (default FULL).
 */
export const layerConfig: Layer.Layer<Services, SqlError | MigrationError | ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.gen(function*() {
    const at = yield* location
    if (at._tag === "Pg") {
      yield* Effect.logInfo("event store: PostgreSQL")
      return layerPg(at.url)
    }
    yield* Effect.try({
      try: () => mkdirSync(at.dataDir, { recursive: true }),
      catch: (error) =>
        ConfigError.InvalidData(["VERBATIM_DATA_DIR"], `cannot use ${at.dataDir} for the data: ${error instanceof Error ? error.message : String(error)}`)
    })
    yield* Effect.logInfo("event store: SQLite").pipe(Effect.annotateLogs({ filename: at.filename, synchronous: at.synchronous }))
    return layerSqlite({ filename: at.filename, synchronous: at.synchronous })
  })
)

/** The SQLite store's layers: a writable open that migrates, and a read-only open for commands that only read. */
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import type { MigrationError } from "@effect/sql/Migrator"
import { SqlClient } from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { Cause, Effect, Layer, type Scope } from "effect"
import { closeSync, fdatasync, openSync } from "node:fs"
import type * as ConfigError from "effect/ConfigError"
import { backgroundCheckpoints } from "./Checkpointer.js"
import * as Dialects from "./internal/Dialect.js"
import { appliedSqlite, latest, migrate } from "./Migrations.js"
import * as SqliteAccess from "./SqliteAccess.js"
import type { Services } from "./StoreOn.js"
import { storeOn } from "./StoreOn.js"

/**
 * `FULL` survives power loss; `NORMAL` in WAL mode survives only a process crash. Both run the
 * connection at SQLite's `NORMAL` (a commit writes the log without flushing it); under `FULL` the
 * group commit then flushes the log itself, on a thread of libuv's pool, before any of the batch's
 * callers hears of it (`logFlush`). SQLite's own `FULL` flushes inside `COMMIT`, on the event loop:
 * every webhook, page and job waited out each flush (BENCHMARKS.md, "The pipeline").
 */
export type SqliteSynchronous = "FULL" | "NORMAL"

export interface SqliteOptions {
  readonly filename: string
  readonly synchronous?: SqliteSynchronous
  /** How long a second process waits for the write lock, in milliseconds. */
  readonly busyTimeout?: number
  /** Checkpoint the write-ahead log from a worker thread (`Checkpointer.ts`) as well as on commit. */
  readonly backgroundCheckpoints?: boolean
}

type Access = "read" | "write"

/**
 * The SQLite client, with a refused open or write said in one line naming the file: the client
 * throws SQLite's error while connecting, which would otherwise surface as a defect's stack.
 */
const sqliteClient = (filename: string, access: Access) => {
  const failure = (cause: unknown) => new SqlError({ cause, message: SqliteAccess.openFailure(filename, cause, access) })
  return SqliteClient.layer(access === "read" ? { filename, readonly: true, disableWAL: true } : { filename }).pipe(
    Layer.catchAllCause((cause): Layer.Layer<SqliteClient.SqliteClient | SqlClient, SqlError | ConfigError.ConfigError> =>
      Cause.isInterruptedOnly(cause) ? Layer.failCause(cause) : Layer.fail(failure(Cause.squash(cause)))
    )
  )
}

/** A store whose SQL failed because the file may not be opened or written, said as `sqliteClient` says it. */
const sayingAccess = <E>(filename: string, access: Access, error: E): E | SqlError =>
  error instanceof SqlError && !error.message.startsWith("cannot ") && SqliteAccess.isAccessFailure(error.cause)
    ? new SqlError({ cause: error.cause, message: SqliteAccess.openFailure(filename, error.cause, access) })
    : error

const busyTimeout = (options: { readonly busyTimeout?: number | undefined }) =>
  Effect.flatMap(SqlClient, (sql) => sql.unsafe(`PRAGMA busy_timeout = ${Math.trunc(options.busyTimeout ?? 5000)}`))

/**
 * Pages the write-ahead log holds before a commit copies them back into the database (SQLite's
 * default is 1,000). A checkpoint copies each page once however often it changed since the last,
 * and a capture batch changes the same index and search pages again and again: at 4,000 pages
 * (16 MB of log) the commits of a capture storm spent 30% less time (610 → 430 ms over 22,000
 * captures), and more gained little (BENCHMARKS.md, "Capture CPU, 2026-12-04, later"). With
 * background checkpoints the commit's checkpoint is only the backstop, copying what the worker
 * has not yet: at 16,000 pages it runs rarely enough that commits took 3–5 ms at p99 in a capture
 * storm, against 19–20 ms at 4,000 (BENCHMARKS.md, "Checkpoints off the event loop").
 */
export const walAutocheckpointPages = (backgroundCheckpoints: boolean) => backgroundCheckpoints ? 16_000 : 4_000

/** How often the background checkpointer runs, in milliseconds. */
export const checkpointIntervalMs = 100

/**
 * The flush of the write-ahead log at `filename`, off the event loop (one `fdatasync` on libuv's
 * pool), for as long as the scope lasts. A flush of the file carries every commit written to it
 * before, so one flush after a batch makes the whole batch (and anything written before it outside
 * the group commit) durable. The log is opened at the first flush that finds it and kept open: it
 * is truncated by checkpoints, never replaced while the store is open.
 */
export const logFlush = (filename: string): Effect.Effect<Effect.Effect<void>, never, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => ({ fd: undefined as number | undefined })),
      (log) => Effect.sync(() => log.fd !== undefined && closeSync(log.fd))
    ),
    (log) =>
      Effect.async<void, NodeJS.ErrnoException>((resume) => {
        if (log.fd === undefined) {
          try {
            log.fd = openSync(`${filename}-wal`, "r")
          } catch (error) {
            // No log yet: nothing committed to flush.
            return resume((error as NodeJS.ErrnoException).code === "ENOENT" ? Effect.void : Effect.fail(error as NodeJS.ErrnoException))
          }
        }
        fdatasync(log.fd, (error) => resume(error === null ? Effect.void : Effect.fail(error)))
      }).pipe(
        // A flush that fails leaves commits in an unknown state on the disk: nothing more is answered.
        Effect.orDieWith((error) => new Error(`flushing the SQLite log of ${filename} failed`, { cause: error }))
      )
  )

/** SQLite in one file: WAL (set by the client), a busy timeout, commits durable before they are answered unless `NORMAL`. */
export const layerSqlite = (options: SqliteOptions): Layer.Layer<Services, SqlError | MigrationError | ConfigError.ConfigError> => {
  const background = options.backgroundCheckpoints === true
  const prepare = Effect.gen(function*() {
    const sql = yield* SqlClient
    yield* busyTimeout(options)
    yield* sql.unsafe("PRAGMA synchronous = NORMAL")
    yield* sql.unsafe(`PRAGMA wal_autocheckpoint = ${walAutocheckpointPages(background)}`)
    yield* migrate
    if (background) {
      yield* backgroundCheckpoints({
        filename: options.filename,
        synchronous: options.synchronous ?? "FULL",
        intervalMs: checkpointIntervalMs
      })
    }
  })
  const durable = options.synchronous === "NORMAL" ? undefined : logFlush(options.filename)
  return storeOn(Dialects.sqlite, prepare, { durable }).pipe(
    Layer.provideMerge(sqliteClient(options.filename, "write")),
    Layer.mapError((error) => sayingAccess(options.filename, "write", error))
  )
}

/**
 * SQLite opened read-only, for commands that only read: it works on a read-only file (and in a
 * read-only directory while the `-wal` and `-shm` files are beside it). It never migrates: a
 * schema behind this version's fails, in one line, asking for a writable open.
 */
export const layerSqliteReadOnly = (
  options: Pick<SqliteOptions, "filename" | "busyTimeout">
): Layer.Layer<Services, SqlError | MigrationError | ConfigError.ConfigError> => {
  const prepare = Effect.gen(function*() {
    yield* busyTimeout(options)
    const applied = yield* appliedSqlite
    if (applied < latest) {
      const refusal = SqliteAccess.cannotWrite(options.filename) ??
        "this open is read-only; run `verbatim serve` (or any command that writes) once to migrate it"
      return yield* new SqlError({ message: SqliteAccess.schemaBehind(options.filename, applied, latest, refusal) })
    }
  })
  return storeOn(Dialects.sqlite, prepare).pipe(
    Layer.provideMerge(sqliteClient(options.filename, "read")),
    Layer.mapError((error) => sayingAccess(options.filename, "read", error))
  )
}

/** The newest migration the database at `filename` has applied, read through a read-only open. */
export const appliedMigration = (filename: string): Effect.Effect<number, SqlError | ConfigError.ConfigError> =>
  Effect.scoped(Effect.flatMap(Layer.build(sqliteClient(filename, "read")), (context) => Effect.provide(appliedSqlite, context))).pipe(
    Effect.mapError((error) => sayingAccess(filename, "read", error))
  )

export { latest as latestMigration }

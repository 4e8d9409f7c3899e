/**
 * Copies of a SQLite store: an online backup that is safe while the server appends, and a
 * restore into a data directory that has no database yet. Each copy is written next to its
 * destination, checked, flushed to disk and only then given its name, so a crash never leaves a
 * half-written file under the final name.
 */
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { SqlClient } from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { Data, Effect, Schema } from "effect"
import { closeSync, copyFileSync, existsSync, fsyncSync, linkSync, openSync, renameSync, rmSync } from "node:fs"
import { basename, dirname, join } from "node:path"
import { Num } from "./Queries/Columns.js"

/** Why a backup or restore did nothing; the message names the file. */
export class SqliteBackupError extends Data.TaggedError("SqliteBackupError")<{
  readonly reason: "NoDatabase" | "TargetExists" | "NotAStore" | "Io"
  readonly message: string
}> {}

/** What a copy holds. */
export interface Summary {
  readonly events: number
  /** The log position of its newest event (0 when it has none). */
  readonly lastPosition: number
  /** When the newest forgetting it holds was recorded (epoch milliseconds), or null: a forgetting after it is not in it. */
  readonly newestForgetting: number | null
}

const describe = (error: unknown): string => {
  const cause = typeof error === "object" && error !== null && "cause" in error ? error.cause : error
  return cause instanceof Error ? cause.message : String(cause)
}

const io = (what: string) => (error: unknown) => new SqliteBackupError({ reason: "Io", message: `${what}: ${describe(error)}` })

const attempt = <A>(what: string, run: () => A) => Effect.try({ try: run, catch: io(what) })

/** Run `effect` on a connection of its own to `filename`, leaving its journal mode as it is. */
const onFile = <A, E>(filename: string, effect: Effect.Effect<A, E, SqlClient>) =>
  effect.pipe(
    Effect.provide(SqliteClient.layer({ filename, disableWAL: true })),
    Effect.scoped
  )

const SummaryRow = Schema.Struct({ n: Num, last: Num, erased: Schema.NullOr(Num) })
const CheckRow = Schema.Struct({ quick_check: Schema.String })

/** The file's events, once SQLite's own check passes and it has the store's log; failures name it `label`. */
const inspect = (filename: string, label: string) =>
  onFile(
    filename,
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const checks = yield* SqlSchema.findAll({ Request: Schema.Void, Result: CheckRow, execute: () => sql`PRAGMA quick_check` })(undefined)
      if (checks.length !== 1 || checks[0]!.quick_check !== "ok") {
        return yield* new SqliteBackupError({
          reason: "NotAStore",
          message: `${label} is damaged: ${checks.map((c) => c.quick_check).join("; ")}`
        })
      }
      // An aggregate without GROUP BY always gives one row.
      const row = yield* SqlSchema.single({
        Request: Schema.Void,
        Result: SummaryRow,
        execute: () =>
          sql`SELECT COUNT(*) AS n, COALESCE(MAX(position), 0) AS last,
            MAX(CASE WHEN type = 'Forgotten' THEN recorded_at END) AS erased FROM events`
      })(undefined)
      return { events: row.n, lastPosition: row.last, newestForgetting: row.erased } satisfies Summary
    })
  ).pipe(
    Effect.catchIf(
      (error) => error._tag !== "SqliteBackupError",
      (error) =>
        Effect.fail(new SqliteBackupError({ reason: "NotAStore", message: `${label} is not a Verbatim database: ${describe(error)}` }))
    )
  )

/** Flush a file, or a directory's entries, to disk. */
const flush = (path: string, flags: "r" | "r+") =>
  attempt(`cannot flush ${path}`, () => {
    const fd = openSync(path, flags)
    try {
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  })

/**
 * Give the finished `partial` the name `target` unless something already has it. A hard link
 * cannot replace a file, so two restores racing for one directory cannot both win; a filesystem
 * without hard links falls back to a rename after a check.
 */
const publish = (partial: string, target: string) =>
  Effect.gen(function*() {
    const exists = new SqliteBackupError({ reason: "TargetExists", message: `${target} already exists` })
    yield* Effect.try({
      try: () => linkSync(partial, target),
      catch: (error) => typeof error === "object" && error !== null && "code" in error && error.code === "EEXIST" ? exists : null
    }).pipe(
      Effect.catchIf(
        (error) => error === null,
        () => existsSync(target) ? Effect.fail(exists) : attempt(`cannot write ${target}`, () => renameSync(partial, target))
      )
    )
    yield* attempt(`cannot remove ${partial}`, () => rmSync(partial, { force: true }))
    yield* flush(dirname(target), "r")
  })

/**
 * Write a copy of `label` to a temporary name beside `target`, check it, flush it, then name it
 * `target`; the partial file never stays.
 */
const writeChecked = <E>(label: string, target: string, write: (partial: string) => Effect.Effect<void, E>) =>
  Effect.gen(function*() {
    if (existsSync(target)) return yield* new SqliteBackupError({ reason: "TargetExists", message: `${target} already exists` })
    const partial = join(dirname(target), `.${basename(target)}.partial-${process.pid}`)
    return yield* Effect.gen(function*() {
      yield* write(partial)
      const summary = yield* inspect(partial, label)
      yield* flush(partial, "r+")
      yield* publish(partial, target)
      return summary
    }).pipe(Effect.ensuring(Effect.sync(() => rmSync(partial, { force: true }))))
  })

/**
 * Back up the store in `source` to `target`, a new file. `VACUUM INTO` rather than the online
 * backup API (better-sqlite3's `db.backup`): it copies inside one read transaction, so the copy
 * is a consistent snapshot that appends in WAL mode neither block nor disturb, whereas the backup
 * API starts over whenever another connection writes mid-copy and, under a steady stream of
 * webhooks, may never finish. SQLite does not flush what `VACUUM INTO` writes, so it is flushed here.
 */
export const backup = (source: string, target: string) =>
  Effect.gen(function*() {
    if (!existsSync(source)) return yield* new SqliteBackupError({ reason: "NoDatabase", message: `no database at ${source}` })
    return yield* writeChecked(source, target, (partial) =>
      onFile(
        source,
        Effect.gen(function*() {
          const sql = yield* SqlClient
          yield* sql.unsafe("PRAGMA busy_timeout = 5000")
          yield* sql`VACUUM INTO ${partial}`
        })
      ).pipe(Effect.mapError(io(`cannot back up ${source}`))))
  })

/** Restore the backup `file` as the store `target`, which must not exist yet (nor its write-ahead log). */
export const restore = (file: string, target: string) =>
  Effect.gen(function*() {
    if (!existsSync(file)) return yield* new SqliteBackupError({ reason: "NoDatabase", message: `no backup at ${file}` })
    if (existsSync(`${target}-wal`)) {
      return yield* new SqliteBackupError({ reason: "TargetExists", message: `${target}-wal already exists` })
    }
    return yield* writeChecked(file, target, (partial) => attempt(`cannot copy ${file}`, () => copyFileSync(file, partial)))
  })

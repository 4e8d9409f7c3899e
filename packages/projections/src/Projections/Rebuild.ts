/** Rebuild the read models from position 0, and compare table contents to prove a rebuild matches. */
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Fiber } from "effect"
import { createHash } from "node:crypto"
import type { Checkpoint } from "../EventStore.js"
import { checkpointOf, EventStore, start, StoreError } from "../EventStore.js"
import { withSearchIndexWhole } from "../Queries/SearchIndex.js"
import * as Dialects from "../internal/Dialect.js"
import type { ReplayRow } from "../internal/Dialect.js"
import type { Replayed } from "../internal/Rows.js"
import { decodeAll, sqlError, toReplayed } from "../internal/Rows.js"
import { flush, project } from "./Projector.js"
import type { TableName } from "./Tables.js"
import { tables, truncateTables } from "./Tables.js"

/** Every row of every read-model table, in key order. */
export type Dump = Record<TableName, ReadonlyArray<Record<string, unknown>>>

/** Read every read-model table whole (for tests and small databases). */
export const dump: Effect.Effect<Dump, StoreError, SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient
  const out: Partial<Record<TableName, ReadonlyArray<Record<string, unknown>>>> = {}
  for (const table of tables) {
    out[table.name] = yield* sql.unsafe<Record<string, unknown>>(`SELECT * FROM ${table.name} ORDER BY ${table.key}`)
  }
  return out as Dump
}).pipe(Effect.mapError(sqlError))

/**
 * A SHA-256 of each table's rows in key order, read a page at a time so memory stays flat. Each
 * page starts after the last row's key (`(k1, k2) > (?, ?)`, through the key's index), so reading
 * a large table costs its size once rather than an `OFFSET` scan that grows with every page.
 */
export const digest = (pageSize = 5000): Effect.Effect<Record<TableName, string>, StoreError, SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const out: Partial<Record<TableName, string>> = {}
    for (const table of tables) {
      const hash = createHash("sha256")
      const columns = table.key.split(",").map((column) => column.trim())
      const key = sql.unsafe(table.key)
      let after: ReadonlyArray<unknown> | null = null
      for (;;) {
        const rows: ReadonlyArray<Record<string, unknown>> = yield* (after === null
          ? sql<Record<string, unknown>>`SELECT * FROM ${sql(table.name)} ORDER BY ${key} LIMIT ${pageSize}`
          : sql<Record<string, unknown>>`SELECT * FROM ${sql(table.name)} WHERE (${key}) > (${sql.csv(after.map((value) => sql`${value}`))})
              ORDER BY ${key} LIMIT ${pageSize}`)
        for (const row of rows) hash.update(JSON.stringify(row)).update("\n")
        const last = rows[rows.length - 1]
        if (rows.length < pageSize || last === undefined) break
        after = columns.map((column) => last[column])
      }
      out[table.name] = hash.digest("hex")
    }
    return out as Record<TableName, string>
  }).pipe(Effect.mapError(sqlError))

/** How many events the log holds: the total a rebuild's progress counts towards. */
export const eventCount: Effect.Effect<number, StoreError, SqlClient> = Effect.flatMap(SqlClient, (sql) =>
  Effect.map(sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM events`, (rows) => Number(rows[0]?.n ?? 0))).pipe(
    Effect.mapError(sqlError)
  )

export interface RebuildOptions {
  readonly pageSize?: number
  /** Told after each page how many more events were applied (a progress bar, say). */
  readonly onPage?: (applied: number) => Effect.Effect<void>
}

/** Events read between two turns of the event loop while a page is being written. */
const readSlice = 250

/** Let pending I/O callbacks run, so the driver sends the next statement of a page being written. */
const turn = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))

/**
 * Read a page's events in their stored form, each payload parsed, upcast and checked against its
 * schema (`toReplayed`). While the previous page is written on PostgreSQL this gives the event
 * loop a turn every few hundred events: the write is a few statements, each sent only when the
 * one before has answered, and a page read in one block would hold the next one back.
 */
const readPage = (rows: ReadonlyArray<ReplayRow>, writing: boolean) =>
  Effect.gen(function*() {
    if (!writing) return yield* decodeAll(rows, toReplayed)
    const out: Array<Replayed> = []
    for (let i = 0; i < rows.length; i += readSlice) {
      out.push(...(yield* decodeAll(rows.slice(i, i + readSlice), toReplayed)))
      yield* turn
    }
    return out
  })

/** Where a replay reads the log from, and where each page's reads and writes of the read models run. */
export interface ReplaySource {
  readonly read: (from: Checkpoint, limit: number) => Effect.Effect<ReadonlyArray<ReplayRow>, SqlError, SqlClient>
  /** Wraps the projector's reads of a page and, apart, its writes (the surrounding transaction as it is, or one of their own). */
  readonly within: <A, E>(effect: Effect.Effect<A, E, SqlClient>) => Effect.Effect<A, E | SqlError, SqlClient>
}

/** What a replay applied, and the checkpoint of its last event (where the next replay goes on). */
export interface ReplayEnd {
  readonly count: number
  readonly cursor: Checkpoint
}

/**
 * Replay every event `source` reads after `from`, a page at a time, until a page comes back short.
 *
 * On PostgreSQL the database works while this process does: a page's rows are written by a
 * forked fiber while the next page is read and checked (measured: the process sat idle half of a
 * sequential rebuild, waiting on its own writes). The next page's rows are loaded only after
 * that write has finished, because they may be rows it wrote. SQLite's driver is synchronous, so
 * there the pages simply follow one another.
 */
export const replayPages = (from: Checkpoint, source: ReplaySource, options: RebuildOptions = {}) =>
  Effect.gen(function*() {
    const store = yield* EventStore
    const overlap = store.backend === "pg"
    const pageSize = options.pageSize ?? 2000
    let cursor = from
    let count = 0
    let writing: Fiber.RuntimeFiber<void, StoreError | SqlError> | undefined
    while (true) {
      const rows = yield* source.read(cursor, pageSize)
      const page = yield* readPage(rows, writing !== undefined)
      if (writing !== undefined) yield* Fiber.join(writing)
      const batch = yield* source.within(project(page))
      const write = source.within(flush(batch))
      if (overlap) writing = yield* Effect.fork(write)
      else yield* write
      count += page.length
      if (options.onPage !== undefined) yield* options.onPage(page.length)
      const last = page[page.length - 1]
      if (last !== undefined) cursor = checkpointOf(last)
      if (last === undefined || page.length < pageSize) {
        if (writing !== undefined) yield* Fiber.join(writing)
        return { count, cursor } satisfies ReplayEnd
      }
    }
  })

/**
 * Empty the read models and replay the whole log into them, in one transaction that keeps
 * writers out; the search index is written whole after the rows (`withSearchIndexWhole`).
 * Returns how many events were applied.
 */
export const rebuild = Effect.fn("Projections.rebuild")(function*(options: RebuildOptions = {}) {
  const sql = yield* SqlClient
  const store = yield* EventStore
  const dialect = store.backend === "pg" ? Dialects.pg : Dialects.sqlite
  const source: ReplaySource = { read: (from, limit) => dialect.replayAfter(sql, from, limit), within: (effect) => effect }
  const replay = Effect.zipRight(truncateTables, replayPages(start, source, options))
  return yield* sql.withTransaction(Effect.zipRight(dialect.lockLog(sql), withSearchIndexWhole(replay))).pipe(
    Effect.map((replayed) => replayed.count),
    Effect.catchTag("SqlError", (e) => Effect.fail(sqlError(e))),
    // A span per statement of a million-event replay costs more than it tells.
    Effect.withTracerEnabled(false)
  )
})

/** What a verified rebuild found: events replayed and the tables whose contents changed. */
export interface Verification {
  readonly events: number
  readonly differing: ReadonlyArray<TableName>
}

/** Rebuild and prove it: digest the live tables, rebuild, digest again, and name any table that differs. */
export const rebuildAndVerify = Effect.gen(function*() {
  const before = yield* digest()
  const events = yield* rebuild()
  const after = yield* digest()
  return { events, differing: tables.map((t) => t.name).filter((name) => before[name] !== after[name]) } satisfies Verification
}).pipe(Effect.withSpan("Projections.rebuildAndVerify"))


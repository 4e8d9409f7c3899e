/**
 * Background checkpoints (internal/Checkpointer.ts): a worker thread copies the write-ahead log
 * back into the database while the store's own connection writes, and stops with the store.
 */
import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql/SqlClient"
import * as Store from "@verbatim/projections/Store"
import { backgroundCheckpoints } from "../src/Checkpointer.js"
import { tempDir } from "@verbatim/testkit/TempDir"
import { Duration, Effect, Layer, Logger, Schedule } from "effect"
import { existsSync, statSync } from "node:fs"
import { join } from "node:path"

const body = (id: number) => `${id}:`.padEnd(4000, "x")

/** Rows of 4 KB: about a page each, written in one transaction so they sit in the log until checkpointed. */
const writeRows = (count: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    yield* sql`CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`
    yield* sql.withTransaction(Effect.forEach(
      Array.from({ length: count }, (_, i) => i),
      (i) => sql`INSERT INTO filler (id, body) VALUES (${i}, ${body(i)})`,
      { discard: true }
    ))
  })

const readRows = Effect.flatMap(SqlClient, (sql) => sql<{ id: number; body: string }>`SELECT id, body FROM filler ORDER BY id`)

const expected = (count: number) => Array.from({ length: count }, (_, id) => ({ id, body: body(id) }))

const fileSize = (path: string) => statSync(path).size

/** Wait (ten seconds at most) until the database file holds the 1,000 rows' pages. */
const checkpointed = (filename: string) =>
  Effect.suspend(() => fileSize(filename) > 4_000_000 ? Effect.void : Effect.fail(`${filename} not checkpointed`)).pipe(
    Effect.retry(Schedule.spaced(Duration.millis(50)).pipe(Schedule.upTo(Duration.seconds(10))))
  )

describe("background checkpoints", () => {
  it.scopedLive("copy the log into the database without a commit reaching the backstop, and every row reads back", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-checkpointer-")
      const filename = join(dir, "store.db")
      const store = yield* Layer.build(Store.layerSqlite({ filename, backgroundCheckpoints: true }))
      yield* Effect.provide(writeRows(1000), store)
      // 1,000 pages is far below the commit's 16,000-page backstop: only the worker copies them.
      yield* checkpointed(filename)
      const rows = yield* Effect.provide(readRows, store)
      expect(rows).toEqual(expected(1000))
    }))

  it.scopedLive("stop with the store: once it closes no connection is left, so the log is folded in and removed", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-checkpointer-")
      const filename = join(dir, "store.db")
      yield* Effect.scoped(Effect.flatMap(Layer.build(Store.layerSqlite({ filename, backgroundCheckpoints: true })), (store) =>
        Effect.zipRight(Effect.provide(writeRows(1000), store), checkpointed(filename))))
      // SQLite removes the log when the last connection to the file closes; the worker's included.
      expect(existsSync(`${filename}-wal`)).toBe(false)
      const rows = yield* Effect.scoped(Effect.flatMap(Layer.build(Store.layerSqlite({ filename })), (store) =>
        Effect.provide(readRows, store)))
      expect(rows).toEqual(expected(1000))
    }))

  it.scopedLive("a worker that cannot open the file is a warning, and the scope still closes", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-checkpointer-")
      const filename = join(dir, "missing.db")
      const warnings: Array<string> = []
      const logger = Logger.replace(Logger.defaultLogger, Logger.make(({ logLevel, message }) => {
        if (logLevel._tag === "Warning") warnings.push(String(message))
      }))
      yield* Effect.scoped(Effect.gen(function*() {
        yield* backgroundCheckpoints({ filename, synchronous: "FULL", intervalMs: 10 })
        yield* Effect.suspend(() => warnings.length > 0 ? Effect.void : Effect.fail("no warning yet")).pipe(
          Effect.retry(Schedule.spaced(Duration.millis(20)).pipe(Schedule.upTo(Duration.seconds(10))))
        )
      })).pipe(Effect.provide(logger))
      expect(warnings).toEqual([`background checkpoints of ${filename}: unable to open database file`])
      expect(existsSync(filename)).toBe(false)
    }))
})

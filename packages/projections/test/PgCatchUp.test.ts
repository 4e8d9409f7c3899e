/**
 * On a real PostgreSQL server: writers whose transactions commit out of position order, and a
 * catch-up reader polling throughout. The store's reader sees every committed event exactly
 * once; a naive `position > checkpoint` reader, run on the same workload, misses some.
 */
import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql/SqlClient"
import { encode } from "@verbatim/projections/EventCodec"
import { EventStore, start } from "@verbatim/projections/EventStore"
import * as Database from "@verbatim/testkit/Database"
import { messageReceived } from "@verbatim/testkit/Given"
import { Clock, Effect, Fiber, Option, Ref, Stream } from "effect"

const writers = 12
const transactionsPerWriter = 8
const metadata = JSON.stringify({ correlationId: null, causationId: null })

/** One writer transaction: take positions now, commit `delayMs` later. */
const slowAppend = (stream: string, seqs: ReadonlyArray<number>, delayMs: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    return yield* sql.withTransaction(Effect.gen(function*() {
      const rows = seqs.map((seq) => {
        const encoded = encode(messageReceived(stream, seq, `m${seq}`))
        return { stream, version: seq, type: encoded.type, schema_version: encoded.schemaVersion, payload: encoded.payload, metadata, recorded_at: 0 }
      })
      const inserted = yield* sql<{ position: string }>`INSERT INTO events ${sql.insert(rows)} RETURNING position`
      yield* sql`SELECT pg_sleep(${delayMs / 1000})`
      return inserted.map((r) => Number(r.position))
    }))
  })

/** The workload: a slow transaction holding an early position while quick ones commit past it, then random delays. */
const workload = Effect.gen(function*() {
  const slow = Effect.fork(slowAppend("held", [1], 400))
  const held = yield* slow
  yield* Effect.sleep(50)
  const quick = yield* slowAppend("quick", [1], 0)
  const rest = yield* Effect.forEach(
    Array.from({ length: writers }, (_, w) => w),
    (w) =>
      Effect.forEach(Array.from({ length: transactionsPerWriter }, (_, t) => t), (t) =>
        slowAppend(`w${w}`, [2 * t + 1, 2 * t + 2], ((w * 7 + t * 13) % 10) * 8)).pipe(Effect.map((ps) => ps.flat())),
    { concurrency: "unbounded" }
  )
  return [...(yield* Fiber.join(held)), ...quick, ...rest.flat()]
})

/** The store's own catch-up subscription. */
const storeReader = (seen: Ref.Ref<Array<number>>) =>
  Effect.flatMap(EventStore, (store) =>
    store.subscribe(start, { pollInterval: 5, pageSize: 7 }).pipe(
      Stream.runForEach((event) => Ref.update(seen, (all) => [...all, event.position]))
    ))

/** The reader this design exists to avoid: checkpoint on the position alone. */
const naiveReader = (seen: Ref.Ref<Array<number>>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    let checkpoint = 0
    while (true) {
      const rows = yield* sql<{ position: string }>`SELECT position FROM events WHERE position > ${checkpoint}
        ORDER BY position LIMIT 7`
      for (const row of rows) checkpoint = Number(row.position)
      yield* Ref.update(seen, (all) => [...all, ...rows.map((r) => Number(r.position))])
      if (rows.length === 0) yield* Effect.sleep(5)
    }
  })

/** Run the workload with a reader polling throughout; return what committed and what the reader saw. */
const race = (reader: (seen: Ref.Ref<Array<number>>) => Effect.Effect<unknown, unknown, SqlClient | EventStore>) =>
  Effect.gen(function*() {
    const seen = yield* Ref.make<Array<number>>([])
    const fiber = yield* Effect.fork(reader(seen))
    const committed = yield* workload
    const deadline = (yield* Clock.currentTimeMillis) + 3_000
    while ((yield* Ref.get(seen)).length < committed.length && (yield* Clock.currentTimeMillis) < deadline) {
      yield* Effect.sleep(20)
    }
    yield* Effect.sleep(100)
    yield* Fiber.interrupt(fiber)
    return { committed: [...committed].sort((a, b) => a - b), seen: yield* Ref.get(seen) }
  }).pipe(Effect.withClock(Clock.make()))

const real = Effect.runSync(Database.realPgOnly)

describe("catch-up reading on real PostgreSQL", () => {
  if (Option.isNone(real)) {
    console.log("skipped: concurrent catch-up tests need a real PostgreSQL server; set VERBATIM_TEST_DATABASE_URL")
    it.skip("needs VERBATIM_TEST_DATABASE_URL", () => {})
    return
  }
  it.layer(real.value, { timeout: 60_000 })((it) => {
    it.effect("the store's reader sees every committed event exactly once", () =>
      Effect.gen(function*() {
        const { committed, seen } = yield* race(storeReader)
        expect([...seen].sort((a, b) => a - b)).toEqual(committed)
      }), 60_000)

    it.effect("a naive position > checkpoint reader misses events on the same workload", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        yield* sql`DELETE FROM events`
        const { committed, seen } = yield* race(naiveReader)
        const missed = committed.filter((p) => !seen.includes(p))
        expect(missed.length).toBeGreaterThan(0)
      }), 60_000)
  })
})

/** Leases on every backend: a dead holder lets go after one TTL, a live one keeps its lease by renewing it. */
import { expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql/SqlClient"
import { acquire, Leases, take } from "@verbatim/projections/Leases"
import type { Services } from "@verbatim/projections/Store"
import { DateTime, Deferred, Duration, Effect, Either, Fiber, Layer, Logger, Option, Random, TestClock, TestServices } from "effect"

const ttl = 15_000

/** The store with leases of a 15 s TTL for process `host:1234`, owner suffixes ab12, cd34, … in turn, and logs kept. */
const setup = (store: () => Layer.Layer<Services, unknown>) => {
  const logs: Array<Record<string, unknown>> = []
  const logger = Logger.replace(
    Logger.defaultLogger,
    Logger.make(({ annotations, message }) => {
      logs.push({ message: [message].flat().join(" "), ...Object.fromEntries(annotations) })
    })
  )
  const layer = Leases.layerTest({ ttl, processId: "host:1234" }).pipe(Layer.provideMerge(store()), Layer.provideMerge(logger))
  return { logs, layer }
}

// A fresh sequence per test: a fixed Random keeps its place.
const ids = () => Random.fixed([0xab12, 0xcd34, 0xef56])

const rowsOf = (key: string) =>
  Effect.flatMap(SqlClient, (sql) => sql`SELECT owner FROM leases WHERE lease_key = ${key}`)

/** Wait (on the real clock) until `done` holds: a forked fiber's query takes real time on PostgreSQL. */
const eventually = (done: () => boolean) =>
  TestServices.provideLive(Effect.sleep(Duration.millis(5))).pipe(Effect.repeat({ until: done, times: 400 }))

const attempt = (key: string) => Effect.flatMap(Leases, (leases) => leases.withLease(key, Effect.succeed("ran"), "busy"))

/** Register the suite for one backend; each test gets a fresh database. */
export const leasesConformance = (store: () => Layer.Layer<Services, unknown>) => {
  it.effect("a holder that stopped renewing (it died) keeps its key for one TTL, then another owner takes it", () => {
    const { layer, logs } = setup(store)
    return Effect.gen(function*() {
      const leases = yield* Leases
      expect(yield* acquire("plan:a", "dead:99:0000", ttl)).toBe(true)
      expect(yield* attempt("plan:a")).toBe("busy")
      expect(yield* leases.holder("plan:a")).toEqual(Option.some({ owner: "dead:99:0000", since: DateTime.unsafeMake(0) }))
      yield* TestClock.adjust(ttl)
      expect(yield* attempt("plan:a")).toBe("busy")
      yield* TestClock.adjust(1)
      const seen = yield* leases.withLease("plan:a", leases.holder("plan:a"), Option.none())
      expect(seen).toEqual(Option.some({ owner: "host:1234:ef56", since: DateTime.unsafeMake(ttl + 1) }))
      expect(yield* rowsOf("plan:a")).toEqual([])
      expect(logs).toEqual([])
    }).pipe(Effect.withRandom(ids()), Effect.provide(layer))
  })

  it.effect("a live holder renews its lease past the TTL while it works; the heartbeat stops and the row goes when it ends", () => {
    const { layer, logs } = setup(store)
    return Effect.gen(function*() {
      const leases = yield* Leases
      const started = yield* Deferred.make<void>()
      const done = yield* Deferred.make<void>()
      const work = Effect.zipRight(Deferred.succeed(started, undefined), Effect.as(Deferred.await(done), "finished"))
      const holder = yield* Effect.fork(leases.withLease("plan:b", work, "busy"))
      yield* Deferred.await(started)
      for (let step = 0; step < 12; step++) yield* TestClock.adjust(ttl / 3)
      expect(yield* attempt("plan:b")).toBe("busy")
      expect(yield* leases.holder("plan:b")).toEqual(Option.some({ owner: "host:1234:ab12", since: DateTime.unsafeMake(0) }))
      yield* Deferred.succeed(done, undefined)
      expect(yield* Fiber.join(holder)).toBe("finished")
      expect(yield* rowsOf("plan:b")).toEqual([])
      expect(yield* leases.holder("plan:b")).toEqual(Option.none())
      // A heartbeat still running would find the row gone and warn.
      for (let step = 0; step < 6; step++) yield* TestClock.adjust(ttl / 3)
      expect(logs).toEqual([])
      expect(yield* attempt("plan:b")).toBe("ran")
    }).pipe(Effect.withRandom(ids()), Effect.provide(layer))
  })

  it.effect("a lease is released when its work fails or is interrupted", () => {
    const { layer } = setup(store)
    return Effect.gen(function*() {
      const leases = yield* Leases
      const failed = yield* Effect.either(leases.withLease("reply:f", Effect.fail("boom"), "held"))
      expect(failed).toEqual(Either.left("boom"))
      expect(yield* rowsOf("reply:f")).toEqual([])
      const started = yield* Deferred.make<void>()
      const fiber = yield* Effect.fork(leases.withLease("reply:i", Effect.zipRight(Deferred.succeed(started, undefined), Effect.never), "held"))
      yield* Deferred.await(started)
      expect(yield* rowsOf("reply:i")).toEqual([{ owner: "host:1234:cd34" }])
      yield* Fiber.interrupt(fiber)
      expect(yield* rowsOf("reply:i")).toEqual([])
    }).pipe(Effect.withRandom(ids()), Effect.provide(layer))
  })

  it.effect("a renewal that finds the lease taken by another owner logs a warning naming both", () => {
    const { layer, logs } = setup(store)
    return Effect.gen(function*() {
      const leases = yield* Leases
      const sql = yield* SqlClient
      const started = yield* Deferred.make<void>()
      const done = yield* Deferred.make<void>()
      const work = Effect.zipRight(Deferred.succeed(started, undefined), Deferred.await(done))
      const fiber = yield* Effect.fork(leases.withLease("plan:c", work, "busy"))
      yield* Deferred.await(started)
      yield* sql`UPDATE leases SET owner = 'other:7:0001' WHERE lease_key = 'plan:c'`
      yield* TestClock.adjust(ttl / 3)
      yield* eventually(() => logs.length > 0)
      yield* Deferred.succeed(done, undefined)
      yield* Fiber.join(fiber)
      expect(logs).toEqual([{
        message: "lease taken by another owner while its holder works",
        key: "plan:c",
        owner: "host:1234:ab12",
        holder: "other:7:0001"
      }])
      expect(yield* rowsOf("plan:c")).toEqual([{ owner: "other:7:0001" }])
    }).pipe(Effect.withRandom(ids()), Effect.provide(layer))
  })

  it.effect("a holder sees how many holders before it died holding the lease; a release starts the count again", () => {
    const { layer } = setup(store)
    return Effect.gen(function*() {
      const leases = yield* Leases
      const lapses = () => leases.withLeaseLapses("plan:d", (n) => Effect.succeed(n), "busy")
      expect(yield* take("plan:d", "dead:1:0000", ttl)).toEqual(Option.some(0))
      yield* TestClock.adjust(ttl + 1)
      expect(yield* take("plan:d", "dead:2:0000", ttl)).toEqual(Option.some(1))
      // The same owner taking its own lease again is no lapse.
      expect(yield* take("plan:d", "dead:2:0000", ttl)).toEqual(Option.some(1))
      expect(yield* lapses()).toBe("busy")
      yield* TestClock.adjust(ttl + 1)
      expect(yield* lapses()).toBe(2)
      expect(yield* rowsOf("plan:d")).toEqual([])
      expect(yield* lapses()).toBe(0)
    }).pipe(Effect.withRandom(ids()), Effect.provide(layer))
  })
}

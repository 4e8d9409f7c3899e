/**
 * Instances sharing one PostgreSQL wake each other: a commit's topics are announced with
 * `NOTIFY` and heard by every other instance's `LISTEN`, so a reply queued on one is sent at once
 * by the outbox loop of another that polls only once a minute. Needs the real server
 * (`VERBATIM_TEST_DATABASE_URL`, as `.ci/run` sets); PGlite has no second connection to listen on.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Event } from "@verbatim/domain/Events"
import { EventStore } from "@verbatim/projections/EventStore"
import * as Store from "@verbatim/projections/Store"
import { Wakeups } from "@verbatim/projections/Wakeups"
import * as Database from "@verbatim/testkit/Database"
import * as G from "@verbatim/testkit/Given"
import { Effect, Layer, Option, Ref } from "effect"

const url = Effect.runSync(Effect.map(Database.testDatabaseUrl, Option.isSome))
if (!url) console.log("skipped: wake-ups across instances need a real PostgreSQL server (PGlite has one connection); set VERBATIM_TEST_DATABASE_URL")

describe.skipIf(!url)("wake-ups across instances on PostgreSQL", () => {
  it.scopedLive("a reply queued on one instance wakes another's outbox loop at once; an event of no topic wakes nothing", () =>
    Effect.gen(function*() {
      const database = Option.getOrThrow(yield* Database.realPgDatabase)
      const one = yield* Layer.build(Store.layerPg(database, { maxConnections: 4 }))
      const other = yield* Layer.build(Store.layerPg(database, { maxConnections: 4 }))
      const passes = yield* Ref.make(0)
      yield* Effect.forkScoped(Effect.flatMap(Wakeups, (w) => w.loop(["ReplyQueued"], "60 seconds", Ref.update(passes, (n) => n + 1))).pipe(
        Effect.provide(other)
      ))
      const waitFor = (count: number) =>
        Effect.gen(function*() {
          for (let tries = 0; tries < 500 && (yield* Ref.get(passes)) < count; tries++) yield* Effect.sleep("20 millis")
          return yield* Ref.get(passes)
        })
      // The first pass runs as the loop starts, and the listener needs a moment to be listening.
      expect(yield* waitFor(1)).toBe(1)
      yield* Effect.sleep("500 millis")
      const append = (stream: string, event: Event) =>
        Effect.flatMap(EventStore, (store) => store.append(stream, "any", [event])).pipe(Effect.provide(one))
      yield* append("session-s1", G.sessionOpened("s1"))
      yield* Effect.sleep("500 millis")
      expect(yield* Ref.get(passes)).toBe(1)
      yield* append("reply-r1", G.replyQueued("r1", "Added 1 note: Ana."))
      expect(yield* waitFor(2)).toBe(2)
    }), 60_000)
})

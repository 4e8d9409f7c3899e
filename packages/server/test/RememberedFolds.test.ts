/**
 * What a runner remembers between commands (a session's fold, a conversation's open session) is
 * only a guess: two instances on one database each remember their own, and a capture or edit
 * decided on a stale guess still lands where a fresh read would have put it.
 */
import { describe, expect, it } from "@effect/vitest"
import type { SessionId } from "@verbatim/domain/Ids"
import { Edit } from "@verbatim/domain/Inbound/Inbound"
import { EventStore } from "@verbatim/projections/EventStore"
import * as Store from "@verbatim/projections/Store"
import { tempDir } from "@verbatim/testkit/TempDir"
import { DateTime, Effect, Layer } from "effect"
import { join } from "node:path"
import * as Ingest from "../src/Inbox/Ingest.js"
import { sessionStream } from "@verbatim/domain/Streams"
import { text } from "./planJobHarness.js"
import { TimeZones } from "../src/TimeZones.js"

const first = "telegram:100000001:100000001:1" as SessionId
const second = "telegram:100000001:100000001:2" as SessionId

const message = (n: number, body: string) => text(n, body)

const editOf = (n: number, body: string) =>
  Edit.make({
    ...text(n, body),
    _tag: "Edit",
    editKey: `${n}@1`,
    editedAt: DateTime.unsafeMake("2026-11-30T09:01:00Z")
  })

/** Two instances' services on one SQLite file, each with its own store and so its own memory. */
const twoInstances = Effect.gen(function*() {
  const dir = yield* tempDir("verbatim-remembered-")
  const layer = () => Layer.merge(Store.layerSqlite({ filename: join(dir, "events.db"), synchronous: "NORMAL" }), TimeZones.layerZone("UTC"))
  const a = yield* Layer.build(layer())
  const b = yield* Layer.build(layer())
  return { a: <A, E, R>(e: Effect.Effect<A, E, R>) => Effect.provide(e, a), b: <A, E, R>(e: Effect.Effect<A, E, R>) => Effect.provide(e, b) }
})

/** Each event of a session's stream, as tag and the text it carries. */
const streamOf = (sessionId: SessionId) =>
  Effect.flatMap(EventStore, (store) =>
    Effect.map(store.readStream(sessionStream(sessionId)), (events) =>
      events.map(({ event }) =>
        event._tag === "MessageReceived"
          ? `${event._tag} ${event.message.text}`
          : event._tag === "MessageEdited"
          ? `${event._tag} ${event.text}`
          : event._tag
      )))

describe("remembered folds", () => {
  it.scopedLive("a capture into a session another instance closed lands in the next session", () =>
    Effect.gen(function*() {
      const { a, b } = yield* twoInstances
      expect(yield* a(Ingest.capture(message(1, "Ana moved to Lyon")))).toEqual({ _tag: "Recorded", sessionId: first, seq: 1 })
      expect(yield* b(Ingest.closeSession(first, "idle"))).toBe(true)
      expect(yield* a(Ingest.capture(message(2, "Bea starts at Acme")))).toEqual({ _tag: "Recorded", sessionId: second, seq: 1 })
      expect(yield* a(streamOf(first))).toEqual(["SessionOpened", "MessageReceived Ana moved to Lyon", "SessionClosed"])
      expect(yield* a(streamOf(second))).toEqual(["SessionOpened", "MessageReceived Bea starts at Acme"])
    }))

  it.scopedLive("a capture after another instance captured into the same session takes the next seq", () =>
    Effect.gen(function*() {
      const { a, b } = yield* twoInstances
      yield* a(Ingest.capture(message(1, "Ana moved to Lyon")))
      expect(yield* b(Ingest.capture(message(2, "her sister is Bea")))).toEqual({ _tag: "Recorded", sessionId: first, seq: 2 })
      expect(yield* a(Ingest.capture(message(3, "Bea starts at Acme")))).toEqual({ _tag: "Recorded", sessionId: first, seq: 3 })
      expect(yield* b(streamOf(first))).toEqual([
        "SessionOpened",
        "MessageReceived Ana moved to Lyon",
        "MessageReceived her sister is Bea",
        "MessageReceived Bea starts at Acme"
      ])
    }))

  it.scopedLive("an edit of a message another instance captured is recorded, though this instance's fold lacks it", () =>
    Effect.gen(function*() {
      const { a, b } = yield* twoInstances
      yield* a(Ingest.capture(message(1, "Ana moved to Lyon")))
      yield* b(Ingest.capture(message(2, "her sister is Bea")))
      expect(yield* a(Ingest.edit(editOf(2, "her sister is Beatriz")))).toEqual({ _tag: "Edited", messageId: "telegram:100000001:2" })
      expect(yield* b(streamOf(first))).toEqual([
        "SessionOpened",
        "MessageReceived Ana moved to Lyon",
        "MessageReceived her sister is Bea",
        "MessageEdited her sister is Beatriz"
      ])
    }))

  // Under the test clock a retry's backoff never ends: this capture must find the next session without one.
  it.scoped("a capture after this instance closed the session opens the next one, without a retry", () =>
    Effect.gen(function*() {
      const { a } = yield* twoInstances
      yield* a(Ingest.capture(message(1, "Ana moved to Lyon")))
      expect(yield* a(Ingest.closeSession(first, "idle"))).toBe(true)
      expect(yield* a(Ingest.capture(message(2, "Bea starts at Acme")))).toEqual({ _tag: "Recorded", sessionId: second, seq: 1 })
    }))
})

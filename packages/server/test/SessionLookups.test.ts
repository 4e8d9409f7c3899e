/** The capture path's session lookups: what they find, and that each finds it through an index. */
import { describe, expect, it } from "@effect/vitest"
import { messageIdOf, type SessionId, userIdOf } from "@verbatim/domain/Ids"
import { NewMessage } from "@verbatim/domain/Inbound/Inbound"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import * as Database from "@verbatim/testkit/Database"
import * as QueryPlans from "@verbatim/testkit/QueryPlans"
import { DateTime, Effect, Option, TestClock, Layer } from "effect"
import * as Ingest from "../src/Inbox/Ingest.js"
import * as Sessions from "../src/Sessions.js"
import { TimeZones } from "../src/TimeZones.js"

const sender = "100000001"
const conversation = { user: userIdOf("telegram", sender), provider: "telegram" as const, chat: sender }
const sessionId = "telegram:100000001:100000001:1"

const read = <A, E>(f: (lookups: SessionLookups["Type"]) => Effect.Effect<A, E>) => Effect.flatMap(SessionLookups, f)
const messageSession = (provider: "telegram" | "whatsapp", id: string) => read((m) => m.messageSession(messageIdOf(provider, id)))
const idleSessions = (cutoff: string, webCutoff = cutoff) => read((m) => m.idleSessions(cutoff, webCutoff))

const newMessage = (providerMessageId: string, text: string, provider: "telegram" | "web" = "telegram") =>
  NewMessage.make({
    provider,
    providerMessageId,
    senderId: sender,
    chatId: sender,
    senderName: null,
    text,
    kind: "text",
    forwardedFrom: null,
    replyTo: null,
    attachments: [], links: [], mediaGroup: null,
    sentAt: DateTime.unsafeMake("2026-11-30T09:00:00Z")
  })

/** Capture a message as if it arrived at `iso` (the test clock is set there). */
const captureAt = (iso: string, providerMessageId: string, text: string, provider: "telegram" | "web" = "telegram") =>
  Effect.andThen(
    TestClock.setTime(DateTime.toEpochMillis(DateTime.unsafeMake(iso))),
    Ingest.capture(newMessage(providerMessageId, text, provider))
  )

/** Run `effect`, and return SQLite's query plan (its detail lines) for each statement it ran. */
const plansOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(QueryPlans.plansOf(effect), ({ explained }) => explained.map((statement) => statement.plan))

describe.each([
  { backend: "SQLite", store: () => Database.sqlite() },
  { backend: "PostgreSQL", store: () => Database.pg }
])("session queries on $backend", ({ store }) => {
  it.effect("an edit's lookup finds the captured message's session by provider and provider id, and nothing for another provider", () =>
    Effect.gen(function*() {
      yield* captureAt("2026-11-30T10:00:00Z", "6557", "Ana moved to Lyon")
      expect(yield* messageSession("telegram", "6557")).toEqual(Option.some(sessionId))
      expect(yield* messageSession("whatsapp", "6557")).toEqual(Option.none())
      expect(yield* messageSession("telegram", "6558")).toEqual(Option.none())
    }).pipe(Effect.provide(Layer.merge(store(), TimeZones.layerZone("UTC")))))

  it.effect("a session is idle once its last message is at or before the cutoff", () =>
    Effect.gen(function*() {
      yield* captureAt("2026-11-30T10:00:00Z", "6557", "Ana moved to Lyon")
      yield* captureAt("2026-11-30T10:05:00Z", "6558", "and her sister Bea")
      expect(yield* idleSessions("2026-11-30T10:04:59.999Z")).toEqual([])
      expect(yield* idleSessions("2026-11-30T10:05:00.000Z")).toEqual([sessionId])
      expect(yield* Ingest.closeSession(sessionId as never, "idle")).toBe(true)
      expect(yield* idleSessions("2026-11-30T11:00:00.000Z")).toEqual([])
    }).pipe(Effect.provide(Layer.merge(store(), TimeZones.layerZone("UTC")))))

  it.effect("a session on the web pages is idle by its own, longer cutoff", () =>
    Effect.gen(function*() {
      yield* captureAt("2026-11-30T10:00:00Z", "6557", "Ana moved to Lyon")
      yield* captureAt("2026-11-30T10:00:00Z", "w1", "Bea starts at the clinic", "web")
      const web = "web:100000001::1"
      expect(yield* idleSessions("2026-11-30T10:00:30.000Z", "2026-11-30T09:45:30.000Z")).toEqual([sessionId])
      expect(yield* idleSessions("2026-11-30T10:15:00.000Z", "2026-11-30T10:00:00.000Z")).toEqual([sessionId, web].sort())
    }).pipe(Effect.provide(Layer.merge(store(), TimeZones.layerZone("UTC")))))
})

describe("session queries' plans", () => {
  it.effect("on SQLite each lookup searches an index: a capture's, its stream read, an edit's and the idle check's", () =>
    Effect.gen(function*() {
      yield* captureAt("2026-11-30T10:00:00Z", "6557", "Ana moved to Lyon")
      expect(yield* plansOf(read((m) => m.conversationSessions(conversation)))).toEqual([[
        "SEARCH sessions USING INDEX sessions_conversation (user_id=? AND provider=? AND chat=?)"
      ]])
      // The runner reads only the stream's events after the version it folded last.
      expect(yield* plansOf(Sessions.load(sessionId as SessionId))).toEqual([[
        "SEARCH events USING INDEX sqlite_autoindex_events_1 (stream=? AND version>?)"
      ]])
      expect(yield* plansOf(messageSession("telegram", "6557"))).toEqual([[
        "SEARCH messages USING INDEX sqlite_autoindex_messages_1 (message_id=?)"
      ]])
      // The open sessions are walked through their own index (they are few); each one's last message is one index search.
      expect(yield* plansOf(idleSessions("2026-11-30T11:00:00.000Z"))).toEqual([[
        "SCAN s USING INDEX sessions_open",
        "CORRELATED SCALAR SUBQUERY 1",
        "SEARCH m USING INDEX sqlite_autoindex_messages_2 (session_id=?)"
      ]])
    }).pipe(Effect.provide(Layer.merge(Database.sqlite(), TimeZones.layerZone("UTC")))))
})

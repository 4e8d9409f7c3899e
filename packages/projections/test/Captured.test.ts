/** A user's messages by send minute and exact text, on SQLite and on PostgreSQL (the server in VERBATIM_TEST_DATABASE_URL, else PGlite). */
import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { attachment } from "@verbatim/domain/Attachment"
import type { Event } from "@verbatim/domain/Events"
import { UserId } from "@verbatim/domain/Ids"
import { fillSentAt } from "@verbatim/projections/Migrations"
import { rebuild } from "@verbatim/projections/Projections/Rebuild"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import type { Services } from "@verbatim/projections/Store"
import * as Database from "@verbatim/testkit/Database"
import * as G from "@verbatim/testkit/Given"
import { DateTime, Effect } from "effect"
import type { Layer } from "effect"

const bob = UserId.make("telegram:100000002")

/** A received message sent at `sent` and received at `received` (ISO times). */
const timed = (event: Event, sent: string, received = sent): Event =>
  event._tag === "MessageReceived"
    ? { ...event, message: { ...event.message, sentAt: DateTime.unsafeMake(sent), receivedAt: DateTime.unsafeMake(received) } }
    : event

const found = (text: string, user = G.user, from = "2026-01-01T00:00:00Z", to = "2026-01-01T00:01:00Z") =>
  Effect.flatMap(SessionLookups, (read) => read.sentMessages({ user, from: DateTime.unsafeMake(from), to: DateTime.unsafeMake(to), text })).pipe(
    Effect.map((rows) => rows.map((r) => [r.providerMessageId, DateTime.formatIso(r.sentAt), r.text]))
  )

const history = G.given(
  [G.sessionStream("s"), [
    G.sessionOpened("s"),
    timed(G.messageReceived("s", 1, "ok"), "2026-01-01T00:00:05Z"),
    // Received late (a webhook redelivered after an outage): found by when it was sent.
    timed(G.messageReceived("s", 2, "ok"), "2026-01-01T00:00:50Z", "2026-01-01T03:00:00Z"),
    timed(G.messageReceived("s", 3, "Ok"), "2026-01-01T00:00:30Z"),
    timed(G.messageReceived("s", 4, "ok"), "2026-01-01T00:01:00Z"),
    timed(G.messageReceived("s", 5, "look", { kind: "caption", attachments: [attachment("voice", "v-5", { duration: 4 })] }), "2026-01-01T00:00:40Z"),
    G.mediaTranscribed("s", 5, 0, "Porto again", 620),
    // No send time said: its receipt time stands for it.
    G.messageReceived("s", 6, "untimed")
  ]],
  [G.sessionStream("b"), [G.sessionOpened("b"), { ...timed(G.messageReceived("b", 1, "ok"), "2026-01-01T00:00:10Z") }].map((e) =>
    e._tag === "MessageReceived" ? { ...e, message: { ...e.message, sender: bob } } : e)]
)

const conformance = (layer: () => Layer.Layer<Services, unknown>) => {
  it.effect("finds a user's messages sent in the window with exactly the text, by send time, oldest first", () =>
    Effect.gen(function*() {
      yield* history
      const expected = {
        ok: [["p-s-1", "2026-01-01T00:00:05.000Z", "ok"], ["p-s-2", "2026-01-01T00:00:50.000Z", "ok"]],
        look: [["p-s-5", "2026-01-01T00:00:40.000Z", "look"]],
        transcript: [],
        bob: [["p-b-1", "2026-01-01T00:00:10.000Z", "ok"]],
        next: [["p-s-4", "2026-01-01T00:01:00.000Z", "ok"]]
      }
      const all = Effect.all({
        ok: found("ok"),
        look: found("look"),
        transcript: found("look\n🎤 Porto again"),
        bob: found("ok", bob),
        next: found("ok", G.user, "2026-01-01T00:01:00Z", "2026-01-01T00:02:00Z")
      })
      expect(yield* all).toEqual(expected)
      yield* rebuild()
      expect(yield* all).toEqual(expected)
    }).pipe(Effect.provide(layer())))

  it.effect("a store migrated from before send times were kept gets each one from its log, as a rebuild writes it", () =>
    Effect.gen(function*() {
      yield* history
      const sql = yield* SqlClient
      const sentAt = sql<{ message_id: string; sent_at: string }>`SELECT message_id, sent_at FROM messages ORDER BY message_id`
      const rebuilt = yield* sentAt
      yield* sql`UPDATE messages SET sent_at = NULL`
      yield* fillSentAt
      expect(yield* sentAt).toEqual(rebuilt)
      expect(rebuilt.find((r) => r.message_id === "s/2")?.sent_at).toBe("2026-01-01T00:00:50.000Z")
    }).pipe(Effect.provide(layer())))
}

describe("sent messages on SQLite", () => {
  conformance(() => Database.sqlite())
})

describe("sent messages on PostgreSQL", () => {
  conformance(() => Database.pg)
})

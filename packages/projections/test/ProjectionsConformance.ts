/** Read-model projections, run against every backend: derived bodies, unique sources, idempotency, rebuild. */
import { expect, it } from "@effect/vitest"
import { attachment } from "@verbatim/domain/Attachment"
import type { Event } from "@verbatim/domain/Events"
import { EventStore, start } from "@verbatim/projections/EventStore"
import { fillSupersededBy } from "../src/Migrations.js"
import { reapply } from "./Reapply.js"
import { digest, dump, rebuild, rebuildAndVerify } from "@verbatim/projections/Projections/Rebuild"
import type { Services } from "@verbatim/projections/Store"
import * as G from "@verbatim/testkit/Given"
import { createHash } from "node:crypto"
import { Chunk, Effect, Stream } from "effect"
import type { Layer } from "effect"
import { SqlClient } from "@effect/sql/SqlClient"
import { scenario } from "./Scenario.js"

const noteRow = (noteId: string) =>
  Effect.flatMap(SqlClient, (sql) =>
    sql<{ body: string; unmatched_directives: number }>`SELECT body, unmatched_directives FROM notes
      WHERE note_id = ${noteId}`.pipe(Effect.map((rows) => rows.map((r) => ({ ...r, unmatched_directives: Number(r.unmatched_directives) })))))

/**
 * A session planned (a note cutting a directive, a question, an instruction) and then replanned
 * by a promoted replay whose note keeps the text whole, optionally cutting the directive again.
 */
const replanned = (cutAgain: boolean): ReadonlyArray<readonly [string, ReadonlyArray<Event>]> => [
  [G.sessionStream("r"), [
    G.sessionOpened("r"),
    G.messageReceived("r", 1, "Ana loves jazz, remind me"),
    G.messageReceived("r", 2, "Her brother called?"),
    G.messageReceived("r", 3, "thanks bot"),
    G.sessionClosed("r", 3),
    G.planProduced("r", "p1", 3),
    G.noteRecorded("r", "n1", [1], { planId: "p1", directives: [[1, ", remind me"]] }),
    G.questionParked("r", "q1", [2], "p1"),
    G.instructionRecorded("r", 3, "thanks bot", "message", "p1"),
    G.planApplied("r", "p1")
  ]],
  [G.sessionStream("r"), [
    G.planProduced("r", "p2", 3, ["p1"]),
    G.noteRecorded("r", "n2", [1, 2], { planId: "p2", directives: cutAgain ? [[1, ", remind me"]] : [], mergedFrom: 2 }),
    G.instructionRecorded("r", 3, "thanks bot", "message", "p2"),
    G.planApplied("r", "p2")
  ]]
]

/** Register the suite for one backend; each test gets a fresh database. */
export const projectionsConformance = (layer: () => Layer.Layer<Services, unknown>) => {
  it.effect("a note body is derived from message text minus its directives", () =>
    Effect.gen(function*() {
      yield* G.given([G.sessionStream("n"), [
        G.sessionOpened("n"),
        G.messageReceived("n", 1, "Ana loves jazz."),
        G.messageReceived("n", 2, "remind me Friday: her birthday is in May"),
        G.noteRecorded("n", "note-1", [2, 1], { directives: [[2, "remind me Friday: "]] })
      ]])
      expect(yield* noteRow("note-1")).toEqual([{ body: "Ana loves jazz.\n\nher birthday is in May", unmatched_directives: 0 }])
    }).pipe(Effect.provide(layer())))

  it.effect("an edit re-derives the body; a directive that no longer matches is kept whole and flagged", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      yield* G.given([G.sessionStream("n"), [
        G.sessionOpened("n"),
        G.messageReceived("n", 1, "remind me Friday: her birthday is in May"),
        G.noteRecorded("n", "note-1", [1], { directives: [[1, "remind me Friday: "]] }),
        G.messageEdited("n", 1, "remind me Saturday: her birthday is in June", 60)
      ]])
      expect(yield* noteRow("note-1")).toEqual([
        { body: "remind me Saturday: her birthday is in June", unmatched_directives: 1 }
      ])
      const history = yield* sql`SELECT message_id, previous_text, text, edited_at FROM message_edits`
      expect(history).toEqual([{
        message_id: "n/1",
        previous_text: "remind me Friday: her birthday is in May",
        text: "remind me Saturday: her birthday is in June",
        edited_at: "2026-01-01T00:01:00.000Z"
      }])
    }).pipe(Effect.provide(layer())))

  it.effect("a voice note reads as what it is until its transcript lands, then as the caption and the labelled transcript", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const voice = attachment("voice", "voice-1", { duration: 42, mimeType: "audio/ogg" })
      yield* G.given([G.sessionStream("v"), [
        G.sessionOpened("v"),
        G.messageReceived("v", 1, "Ana called."),
        G.messageReceived("v", 2, "From Ana", { kind: "caption", attachments: [voice] }),
        G.noteRecorded("v", "note-1", [1, 2])
      ]])
      expect(yield* noteRow("note-1")).toEqual([{ body: "Ana called.\n\nFrom Ana\n[voice note, 0:42, not transcribed yet]", unmatched_directives: 0 }])
      yield* G.given([G.sessionStream("v"), [
        G.mediaFetched("v", 2, 0, "sha-1", 610),
        G.mediaFailed("v", 2, 0, "the transcriber is unavailable (HTTP 503)", { permanent: false })
      ]])
      expect(yield* noteRow("note-1")).toEqual([{
        body: "Ana called.\n\nFrom Ana\n[voice note, 0:42, not transcribed: the transcriber is unavailable (HTTP 503)]",
        unmatched_directives: 0
      }])
      yield* G.given([G.sessionStream("v"), [G.mediaTranscribed("v", 2, 0, "She starts at the clinic on Monday.", 660)]])
      expect(yield* noteRow("note-1")).toEqual([{ body: "Ana called.\n\nFrom Ana\n🎤 She starts at the clinic on Monday.", unmatched_directives: 0 }])
      const rows = yield* sql`SELECT text, sender_text FROM messages WHERE message_id = 'v/2'`
      expect(rows).toEqual([{ text: "From Ana\n🎤 She starts at the clinic on Monday.", sender_text: "From Ana" }])
      const media = yield* sql`SELECT kind, sha256, failure_stage, derived_text, derived_model, attempts FROM message_media`
      expect(media.map((m) => ({ ...m, attempts: Number(m["attempts"]) }))).toEqual([{
        kind: "voice",
        sha256: "sha-1",
        failure_stage: null,
        derived_text: "She starts at the clinic on Monday.",
        derived_model: "whisper-1",
        attempts: 0
      }])
      expect(yield* rebuildAndVerify).toEqual({ events: 7, differing: [] })
    }).pipe(Effect.provide(layer())))

  it.effect("a message already in a note refuses a second note, and that append commits nothing", () =>
    Effect.gen(function*() {
      const store = yield* EventStore
      yield* G.given([G.sessionStream("n"), [
        G.messageReceived("n", 1, "Ana loves jazz."),
        G.noteRecorded("n", "note-1", [1])
      ]])
      const error = yield* Effect.flip(store.append(G.sessionStream("n"), 2, [
        G.personAdded("p-9", "Bo"),
        G.noteRecorded("n", "note-2", [1])
      ]))
      expect({ tag: error._tag, reason: error._tag === "StoreError" ? error.reason : null }).toEqual({
        tag: "StoreError",
        reason: "duplicate-source"
      })
      const tables = yield* dump
      expect({ notes: tables.notes.map((n) => n["note_id"]), people: tables.people, version: yield* store.streamVersion(G.sessionStream("n")) })
        .toEqual({ notes: ["note-1"], people: [], version: 2 })
    }).pipe(Effect.provide(layer())))

  it.effect("a promoted replay retires the superseded plan's rows, records its own, and stays so when applied again", () =>
    Effect.gen(function*() {
      const store = yield* EventStore
      yield* G.given(...replanned(false))
      const replaced = yield* dump
      const rows = (table: keyof typeof replaced, columns: ReadonlyArray<string>) =>
        replaced[table].map((row) => columns.map((c) => row[c]))
      expect({
        plans: rows("plans", ["plan_id", "applied", "supersedes", "superseded_by"]),
        notes: rows("notes", ["note_id", "plan_id", "body", "unmatched_directives"]),
        sources: rows("note_sources", ["message_id", "note_id"]),
        directives: rows("note_directives", ["note_id", "text"]),
        questions: rows("questions", ["question_id", "status"]),
        instructions: rows("instructions", ["plan_id", "text"])
      }).toEqual({
        plans: [["p1", 0, null, "p2"], ["p2", 1, "p1", null]],
        notes: [["n2", "p2", "Ana loves jazz, remind me\n\nHer brother called?", 0]],
        sources: [["r/1", "n2"], ["r/2", "n2"]],
        directives: [],
        questions: [["q1", "withdrawn"]],
        instructions: [["p2", "thanks bot"]]
      })
      yield* reapply(Chunk.toArray(yield* Stream.runCollect(store.readAll(start))))
      expect(JSON.stringify(yield* dump)).toBe(JSON.stringify(replaced))
    }).pipe(Effect.provide(layer())))

  it.effect("the migration that adds superseded_by fills it for plans superseded before it", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      yield* G.given(...replanned(true))
      const live = yield* dump
      yield* sql`UPDATE plans SET superseded_by = NULL`
      yield* fillSupersededBy
      expect(JSON.stringify(yield* dump)).toBe(JSON.stringify(live))
    }).pipe(Effect.provide(layer())))

  it.effect("a rebuild whose page ends right after a superseding plan matches the live tables", () =>
    Effect.gen(function*() {
      yield* G.given(...replanned(true))
      const live = yield* dump
      // The first page ends with p2's PlanProduced: on it, note_directives only lose rows.
      expect(yield* rebuild({ pageSize: 11 })).toBe(14)
      expect(JSON.stringify(yield* dump)).toBe(JSON.stringify(live))
    }).pipe(Effect.provide(layer())))

  it.effect("an earlier edit applied again leaves a note and a whole-message instruction reading the latest text", () =>
    Effect.gen(function*() {
      const store = yield* EventStore
      yield* G.given([G.sessionStream("e"), [
        G.sessionOpened("e"),
        G.messageReceived("e", 1, "Ana loves jazz"),
        G.messageReceived("e", 2, "thanks bot"),
        G.planProduced("e", "p1", 2),
        G.noteRecorded("e", "n1", [1], { planId: "p1" }),
        G.instructionRecorded("e", 2, "thanks bot", "message", "p1"),
        G.planApplied("e", "p1"),
        G.messageEdited("e", 1, "Ana loves blues", 60),
        G.messageEdited("e", 2, "thanks, bot", 60),
        G.messageEdited("e", 1, "Ana loves soul", 120),
        G.messageEdited("e", 2, "thank you, bot", 120)
      ]])
      const latest = yield* dump
      expect({ note: yield* noteRow("n1"), instructions: latest.instructions.map((row) => row["text"]) })
        .toEqual({ note: [{ body: "Ana loves soul", unmatched_directives: 0 }], instructions: ["thank you, bot"] })
      const recorded = Chunk.toArray(yield* Stream.runCollect(store.readAll(start)))
      const firstEdits = recorded.filter((r) => r.event._tag === "MessageEdited").slice(0, 2)
      yield* reapply(firstEdits)
      expect(JSON.stringify(yield* dump)).toBe(JSON.stringify(latest))
    }).pipe(Effect.provide(layer())))

  it.effect("applying the same events twice changes nothing", () =>
    Effect.gen(function*() {
      const store = yield* EventStore
      yield* G.given(...scenario(6))
      const once = yield* dump
      const events = Chunk.toArray(yield* Stream.runCollect(store.readAll(start)))
      yield* reapply(events)
      expect(JSON.stringify(yield* dump)).toBe(JSON.stringify(once))
    }).pipe(Effect.provide(layer())))

  it.effect("rebuild from position 0 yields byte-identical tables after a long mixed scenario", () =>
    Effect.gen(function*() {
      yield* G.given(...scenario(40))
      const live = yield* dump
      const replayed = yield* rebuild({ pageSize: 37 })
      const rebuilt = yield* dump
      expect(replayed).toBeGreaterThan(400)
      expect(Object.values(live).every((rows) => rows.length > 0)).toBe(true)
      expect(JSON.stringify(rebuilt)).toBe(JSON.stringify(live))
      expect(yield* rebuildAndVerify).toEqual({ events: replayed, differing: [] })
    }).pipe(Effect.provide(layer())))

  it.effect("the digest reads every row of every table once, in key order, whatever the page size", () =>
    Effect.gen(function*() {
      yield* G.given(...scenario(12))
      const whole = Object.fromEntries(Object.entries(yield* dump).map(([table, rows]) => {
        const hash = createHash("sha256")
        for (const row of rows) hash.update(JSON.stringify(row)).update("\n")
        return [table, hash.digest("hex")]
      }))
      // Pages of 1 and 2 rows end inside the composite keys (message_id, position), (note_id, ordinal), ….
      expect([yield* digest(1), yield* digest(2), yield* digest(3), yield* digest()]).toEqual([whole, whole, whole, whole])
    }).pipe(Effect.provide(layer())))

  it.effect("a rebuild over payloads of older schema versions writes the rows the same events recorded now wrote", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      yield* G.given([G.sessionStream("old"), [
        G.sessionOpened("old"),
        G.messageReceived("old", 1, "Ana loves jazz, remind me"),
        G.messageReceived("old", 2, "Her brother called?"),
        G.messageEdited("old", 2, "Her brother called!", 30),
        G.noteRecorded("old", "n-old", [1, 2], { directives: [[1, ", remind me"]] })
      ]])
      const live = yield* dump
      // Each payload as an older build recorded it: MessageReceived v0 (text only) and v1 (no
      // attachments, links or album), MessageEdited v1 (no links).
      const rows = yield* sql<{ position: number; type: string; payload: string }>`SELECT position, type, payload FROM events
        WHERE type IN ('MessageReceived', 'MessageEdited') ORDER BY position`
      for (const [i, row] of rows.entries()) {
        const payload = JSON.parse(row.payload) as Record<string, any>
        const { attachments: _a, links: _l, mediaGroup: _g, kind, forwardedFrom, replyTo, ...v0 } = payload["message"] ?? {}
        const { links: _, ...editV1 } = payload
        const [version, old] = row.type === "MessageEdited"
          ? [1, editV1]
          : i === 0
          ? [0, { ...payload, message: v0 }]
          : [1, { ...payload, message: { ...v0, kind, forwardedFrom, replyTo } }]
        yield* sql`UPDATE events SET schema_version = ${version}, payload = ${JSON.stringify(old)} WHERE position = ${row.position}`
      }
      expect(yield* rebuild()).toBe(5)
      expect(JSON.stringify(yield* dump)).toBe(JSON.stringify(live))
    }).pipe(Effect.provide(layer())))

  it.effect("a rebuild that meets a payload its schema refuses fails naming the field, and leaves the tables as they were", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      yield* G.given([G.sessionStream("bad"), [G.sessionOpened("bad"), G.messageReceived("bad", 1, "Ana loves jazz"), G.sessionClosed("bad", 1)]])
      const live = yield* dump
      yield* sql`UPDATE events SET payload = ${'{"_tag":"SessionClosed","sessionId":"bad","reason":"idle","messageCount":"1","closedAt":"2026-01-01T00:00:00.000Z"}'}
        WHERE type = 'SessionClosed'`
      const error = yield* Effect.flip(rebuild())
      expect({ reason: error.reason, message: error.message }).toEqual({
        reason: "decode",
        message: [
          `SessionClosed v1: { readonly _tag: "SessionClosed"; readonly sessionId: string & Brand<"SessionId">; readonly reason: "idle" | "command" | "import"; readonly messageCount: Finite; readonly closedAt: string }`,
          `└─ ["messageCount"]`,
          `   └─ Finite`,
          `      └─ From side refinement failure`,
          `         └─ Expected number, actual "1"`
        ].join("\n")
      })
      expect(JSON.stringify(yield* dump)).toBe(JSON.stringify(live))
    }).pipe(Effect.provide(layer())))
}

/**
 * Forgetting through the real HTTP server: a note, a message and a person forgotten over the API;
 * the same webhook update delivered again, or an edit of a forgotten message, brings none of it
 * back; the accounting reads Erased; the read model equals its rebuild from the scrubbed log.
 */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan } from "@verbatim/domain/Plan"
import { rebuildAndVerify } from "@verbatim/projections/Projections/Rebuild"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Clock, Effect } from "effect"
import { aliceForgot, forgetOverApi, places } from "./forgetting.js"
import { aliceUpdate, api, capturedTexts, closeIdle, eventLog, layer, readMedia, telegram, telegramCalls, voiceSaying } from "./harness.js"

const sessionId = "telegram:100000001:100000001:1"
const message = (n: number) => `telegram:100000001:${n}`

const planned = layer([planStep({
  ...emptyPlan,
  people: [
    { contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1, 2], directives: [] }] },
    { contactId: null, name: "Bob", notes: [{ sourceItemSeqs: [3], directives: [] }] }
  ]
})])

const capture = Effect.gen(function*() {
  yield* telegram(aliceUpdate(11, { text: "Ana moved to Porto." }))
  yield* telegram(aliceUpdate(12, { text: "Ana's sister is a nurse 👩‍⚕️" }))
  yield* telegram(aliceUpdate(13, { text: "Bob owes me lunch" }))
  yield* closeIdle
})

describe("forgetting over the API", () => {
  it.effect("a message, then a person; redelivery and edits bring nothing back; the books balance", () =>
    Effect.gen(function*() {
      yield* capture
      expect(yield* forgetOverApi(`/api/messages/${message(12)}/forget`)).toEqual([200, aliceForgot({ messages: 1, sessions: 1, people: 0 })])
      const note = yield* api("/api/notes/note_1")
      expect([note.status, (note.json as { body: string; sources: ReadonlyArray<unknown> }).body]).toEqual([200, "Ana moved to Porto."])
      // The note's audit keeps the message it lost: where it was and when its words were erased.
      const audit = (yield* api("/api/notes/note_1/audit")).json as { sources: ReadonlyArray<{ seq: number }>; erased: ReadonlyArray<{ erasedAt: string }> }
      expect({ sources: audit.sources.map((s) => s.seq), erased: audit.erased.map((e) => ({ ...e, erasedAt: e.erasedAt.slice(0, 10) })) }).toEqual({
        sources: [1],
        erased: [{ messageId: message(12), seq: 2, erasedAt: new Date(yield* Clock.currentTimeMillis).toISOString().slice(0, 10) }]
      })
      // The provider delivers the update again, and the sender edits the forgotten message: neither comes back.
      const before = yield* eventLog
      yield* telegram(aliceUpdate(12, { text: "Ana's sister is a nurse 👩‍⚕️" }))
      yield* telegram(JSON.stringify({
        update_id: 990012,
        edited_message: {
          message_id: 12,
          from: { id: 100000001, is_bot: false, first_name: "Alice" },
          chat: { id: 100000001, type: "private", first_name: "Alice" },
          date: 1767225600,
          edit_date: 1767225700,
          text: "Ana's sister is a doctor"
        }
      }))
      expect(yield* eventLog).toEqual(before)
      expect(yield* capturedTexts).toEqual(["Ana moved to Porto.", "", "Bob owes me lunch"])
      const accounting = yield* api(`/api/sessions/${sessionId}/accounting`)
      expect(places(accounting.json)).toEqual(["1: InNote", "2: Erased", "3: InNote"])
      // A person: every note filed under them, and they leave the people list.
      expect(yield* forgetOverApi("/api/people/person_1/forget")).toEqual([200, aliceForgot({ messages: 1, sessions: 1, people: 1 })])
      expect(places((yield* api(`/api/sessions/${sessionId}/accounting`)).json)).toEqual(["1: Erased", "2: Erased", "3: InNote"])
      const people = yield* api("/api/people")
      expect((people.json as { items: ReadonlyArray<{ name: string }> }).items.map((p) => p.name)).toEqual(["Bob"])
      expect(yield* capturedTexts).toEqual(["", "", "Bob owes me lunch"])
      // Nothing left to forget there: a 404, and nothing appended.
      const settled = yield* eventLog
      expect(yield* api("/api/notes/note_1/forget", { method: "POST" })).toEqual({ status: 404, json: { _tag: "NotFound", resource: "note", id: "note_1" } })
      expect(yield* eventLog).toEqual(settled)
      expect((yield* rebuildAndVerify).differing).toEqual([])
    }).pipe(Effect.provide(planned)))

  it.effect("a voice note forgotten before it is read is never fetched nor heard", () =>
    Effect.gen(function*() {
      yield* voiceSaying("telegram", "voice-21", "Zephyrine keeps the spare key under the blue pot")
      yield* telegram(aliceUpdate(21, { voice: { file_id: "voice-21", file_unique_id: "uv21", duration: 3, mime_type: "audio/ogg" } }))
      expect((yield* api(`/api/messages/${message(21)}/forget`, { method: "POST" })).status).toEqual(200)
      yield* readMedia
      expect((yield* eventLog).map((e) => e.split(" ")[1])).toEqual(["SessionOpened", "MessageReceived", "Forgotten", "MessagesErased"])
      expect((yield* telegramCalls).filter((c) => c.method === "getFile")).toEqual([])
    }).pipe(Effect.provide(planned)))
})

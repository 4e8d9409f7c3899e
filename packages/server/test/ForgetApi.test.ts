/**
 * Forgetting through the real HTTP server: a note, a message and a person forgotten over the API;
 * the same webhook update delivered again, or an edit of a forgotten message, brings none of it
 * back; the accounting reads Erased; the read model equals its rebuild from the scrubbed log.
 */
import { describe, expect, it } from "@effect/vitest"
import { MessageId, NoteId, PersonId } from "@verbatim/domain/Ids"
import { emptyPlan } from "@verbatim/domain/Plan"
import { rebuildAndVerify } from "@verbatim/projections/Projections/Rebuild"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { DateTime, Effect } from "effect"
import { client, failureOf } from "./apiClient.js"
import { aliceForgot, forgetOverApi, places } from "./forgetting.js"
import { aliceUpdate, capturedTexts, closeIdle, eventLog, layer, readMedia, telegram, telegramCalls, voiceSaying } from "./harness.js"

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
      expect(yield* forgetOverApi((f) => f.forgetMessage({ path: { id: MessageId.make(message(12)) } }))).toEqual(
        aliceForgot({ messages: 1, sessions: 1, people: 0 })
      )
      const note_1 = { path: { id: NoteId.make("note_1") } }
      expect((yield* client((c) => c.api.note(note_1))).body).toEqual("Ana moved to Porto.")
      // The note's audit keeps the message it lost: where it was and when its words were erased (now, on the test clock).
      const audit = yield* client((c) => c.api.noteAudit(note_1))
      expect({ sources: audit.sources.map((s) => s.seq), erased: audit.erased }).toEqual({
        sources: [1],
        erased: [{ messageId: message(12), seq: 2, erasedAt: yield* DateTime.now }]
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
      expect(yield* places(sessionId)).toEqual(["1: InNote", "2: Erased", "3: InNote"])
      // A person: every note filed under them, and they leave the people list.
      expect(yield* forgetOverApi((f) => f.forgetPerson({ path: { id: PersonId.make("person_1") } }))).toEqual(
        aliceForgot({ messages: 1, sessions: 1, people: 1 })
      )
      expect(yield* places(sessionId)).toEqual(["1: Erased", "2: Erased", "3: InNote"])
      expect(yield* client((c) => c.api.people({ urlParams: {} }))).toEqual({
        items: [{ id: "person_2", user: "telegram:100000001", name: "Bob", noteCount: 1 }],
        nextCursor: null
      })
      expect(yield* capturedTexts).toEqual(["", "", "Bob owes me lunch"])
      // Nothing left to forget there: a 404, and nothing appended.
      const settled = yield* eventLog
      expect(yield* failureOf(client((c) => c.forget.forgetNote(note_1)))).toEqual({ _tag: "NotFound", resource: "note", id: "note_1" })
      expect(yield* eventLog).toEqual(settled)
      expect((yield* rebuildAndVerify).differing).toEqual([])
    }).pipe(Effect.provide(planned)))

  it.effect("a voice note forgotten before it is read is never fetched nor heard", () =>
    Effect.gen(function*() {
      yield* voiceSaying("telegram", "voice-21", "Zephyrine keeps the spare key under the blue pot")
      yield* telegram(aliceUpdate(21, { voice: { file_id: "voice-21", file_unique_id: "uv21", duration: 3, mime_type: "audio/ogg" } }))
      expect(yield* forgetOverApi((f) => f.forgetMessage({ path: { id: MessageId.make(message(21)) } }))).toEqual(
        aliceForgot({ messages: 1, sessions: 1, people: 0 })
      )
      yield* readMedia
      expect((yield* eventLog).map((e) => e.split(" ")[1])).toEqual(["SessionOpened", "MessageReceived", "Forgotten", "MessagesErased"])
      expect((yield* telegramCalls).filter((c) => c.method === "getFile")).toEqual([])
    }).pipe(Effect.provide(planned)))
})

/** Curation through the real HTTP server: each change once, refusals with their status, and the read model as rebuilt. */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan } from "@verbatim/domain/Plan"
import { rebuildAndVerify } from "@verbatim/projections/Projections/Rebuild"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect } from "effect"
import { aliceUpdate, api, closeIdle, layer, telegram } from "./harness.js"

const sessionId = "telegram:100000001:100000001:1"
const message = (n: number) => `telegram:100000001:${n}`

/** Three messages: the first two about Ana, the third about Bob. */
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

const note = (id: string, owner: { name: string; person: string } | null, body: string, seqs: ReadonlyArray<number>) => ({
  id,
  user: "telegram:100000001",
  sessionId,
  owner: owner === null ? { _tag: "Unattached" } : { _tag: "Person", contactId: null, name: owner.name },
  personId: owner?.person ?? null,
  body,
  sources: seqs.map((seq) => ({ messageId: message(10 + seq), seq }))
})

/** A reply's JSON without the recorded times, which the test clock sets. */
const untimed = (json: unknown) => JSON.parse(JSON.stringify(json, (k, v) => (k === "recordedAt" ? undefined : v)))

describe("curation API", () => {
  it.effect("splits a note, moves a half, discards and restores it, renames, merges and unmerges people; a change sent twice is refused", () =>
    Effect.gen(function*() {
      yield* capture
      const ana = { name: "Ana", person: "person_1" }
      const split = yield* api("/api/notes/note_1/split", { method: "POST", body: { atSeq: 2 } })
      expect([split.status, untimed(split.json)]).toEqual([200, {
        note: note("note_1", ana, "Ana moved to Porto.", [1]),
        newNote: note("note_3", ana, "Ana's sister is a nurse 👩‍⚕️", [2])
      }])
      expect(yield* api("/api/notes/note_1/split", { method: "POST", body: { atSeq: 2 } })).toEqual({
        status: 400,
        json: { _tag: "BadRequest", message: "message 2 is not in the note" }
      })
      const moved = yield* api("/api/notes/note_3/move", { method: "POST", body: { to: { _tag: "Person", contactId: null, name: " bob " } } })
      // Bob is found by name: the note is filed under his id, with the name as the move gave it.
      expect([moved.status, untimed(moved.json)]).toEqual([200, {
        ...note("note_3", { name: "Bob", person: "person_2" }, "Ana's sister is a nurse 👩‍⚕️", [2]),
        owner: { _tag: "Person", contactId: "person_2", name: "Bob" }
      }])
      expect(yield* api("/api/notes/note_3/move", { method: "POST", body: { to: { _tag: "Person", contactId: "person_2", name: "Bob" } } }))
        .toEqual({ status: 409, json: { _tag: "Conflict", message: "the note is already there" } })

      const discarded = yield* api("/api/notes/note_2/discard", { method: "POST" })
      expect({ ...discarded, json: untimed(discarded.json) }).toEqual({ status: 200, json: note("note_2", { name: "Bob", person: "person_2" }, "Bob owes me lunch", [3]) })
      expect(yield* api("/api/notes/note_2/discard", { method: "POST" })).toEqual({
        status: 409,
        json: { _tag: "Conflict", message: "the note is already discarded" }
      })
      expect(yield* api("/api/notes/note_2/move", { method: "POST", body: { to: { _tag: "Unattached" } } })).toEqual({
        status: 409,
        json: { _tag: "Conflict", message: "a discarded note is restored before it is moved" }
      })
      const accounting = (yield* api(`/api/sessions/${sessionId}/accounting`)).json as { messages: ReadonlyArray<{ dispositions: unknown }> }
      expect(accounting.messages.map((m) => m.dispositions)).toEqual([
        [{ _tag: "InNote", noteId: "note_1" }],
        [{ _tag: "InNote", noteId: "note_3" }],
        [{ _tag: "Discarded", noteId: "note_2" }]
      ])
      expect(untimed((yield* api("/api/people/person_2/notes")).json)).toEqual({
        items: [note("note_3", { name: "Bob", person: "person_2" }, "Ana's sister is a nurse 👩‍⚕️", [2])].map((n) => ({
          ...n,
          owner: { _tag: "Person", contactId: "person_2", name: "Bob" }
        })),
        nextCursor: null
      })
      const restored = yield* api("/api/notes/note_2/restore", { method: "POST" })
      expect({ ...restored, json: untimed(restored.json) }).toEqual({ status: 200, json: note("note_2", { name: "Bob", person: "person_2" }, "Bob owes me lunch", [3]) })

      expect(yield* api("/api/people/person_2/rename", { method: "POST", body: { name: "  Robert " } })).toEqual({
        status: 200,
        json: { id: "person_2", user: "telegram:100000001", name: "Robert", noteCount: 2 }
      })
      expect(yield* api("/api/people/person_2/rename", { method: "POST", body: { name: "ana" } })).toEqual({
        status: 400,
        json: { _tag: "BadRequest", message: "Ana is another person: merge them instead" }
      })
      expect(yield* api("/api/people/person_1/merge", { method: "POST", body: { into: "person_2" } })).toEqual({
        status: 200,
        json: { id: "person_2", user: "telegram:100000001", name: "Robert", noteCount: 3 }
      })
      expect(yield* api("/api/people/person_1/merge", { method: "POST", body: { into: "person_2" } })).toEqual({
        status: 404,
        json: { _tag: "NotFound", resource: "person", id: "person_1" }
      })
      expect((yield* api("/api/people")).json).toEqual({
        items: [{ id: "person_2", user: "telegram:100000001", name: "Robert", noteCount: 3 }],
        nextCursor: null
      })
      // The merge undone: Ana is back with the note that was hers; the note moved to Robert before stays his.
      expect(yield* api("/api/people/person_1/unmerge", { method: "POST" })).toEqual({
        status: 200,
        json: { id: "person_1", user: "telegram:100000001", name: "Ana", noteCount: 1 }
      })
      expect(yield* api("/api/people/person_1/unmerge", { method: "POST" })).toEqual({
        status: 409,
        json: { _tag: "Conflict", message: "Ana is not merged into anyone" }
      })
      expect(yield* api("/api/people/person_9/unmerge", { method: "POST" })).toEqual({
        status: 404,
        json: { _tag: "NotFound", resource: "person", id: "person_9" }
      })
      expect((yield* api("/api/people")).json).toEqual({
        items: [
          { id: "person_1", user: "telegram:100000001", name: "Ana", noteCount: 1 },
          { id: "person_2", user: "telegram:100000001", name: "Robert", noteCount: 2 }
        ],
        nextCursor: null
      })
      expect(untimed((yield* api("/api/people/person_1/notes")).json)).toEqual({
        items: [{ ...note("note_1", ana, "Ana moved to Porto.", [1]), owner: { _tag: "Person", contactId: "person_1", name: "Ana" } }],
        nextCursor: null
      })
      expect(yield* api("/api/notes/note_9/discard", { method: "POST" })).toEqual({
        status: 404,
        json: { _tag: "NotFound", resource: "note", id: "note_9" }
      })
      expect((yield* rebuildAndVerify).differing).toEqual([])
    }).pipe(Effect.provide(planned)))
})

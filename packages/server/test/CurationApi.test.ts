/** Curation through the real HTTP server: each change once, refusals with their status, and the read model as rebuilt. */
import { describe, expect, it } from "@effect/vitest"
import { NoteId, PersonId, SessionId } from "@verbatim/domain/Ids"
import { emptyPlan } from "@verbatim/domain/Plan"
import { rebuildAndVerify } from "@verbatim/projections/Projections/Rebuild"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { DateTime, Effect } from "effect"
import { client, failureOf } from "./apiClient.js"
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
  sources: seqs.map((seq) => ({ messageId: message(10 + seq), seq })),
  // Planned once the session was idle: 31 seconds into the test clock.
  recordedAt: DateTime.unsafeMake(31_000)
})

const noteAt = (id: string) => ({ path: { id: NoteId.make(id) } })
const personAt = (id: string) => ({ path: { id: PersonId.make(id) } })
const person = (id: string, name: string, noteCount: number) => ({ id, user: "telegram:100000001", name, noteCount })

describe("curation API", () => {
  it.effect("splits a note, moves a half, discards and restores it, renames, merges and unmerges people; a change sent twice is refused", () =>
    Effect.gen(function*() {
      yield* capture
      const ana = { name: "Ana", person: "person_1" }
      const bob = { name: "Bob", person: "person_2" }
      expect(yield* client((c) => c.curation.splitNote({ ...noteAt("note_1"), payload: { atSeq: 2 } }))).toEqual({
        note: note("note_1", ana, "Ana moved to Porto.", [1]),
        newNote: note("note_3", ana, "Ana's sister is a nurse 👩‍⚕️", [2])
      })
      expect(yield* failureOf(client((c) => c.curation.splitNote({ ...noteAt("note_1"), payload: { atSeq: 2 } })))).toEqual({
        _tag: "BadRequest",
        message: "message 2 is not in the note"
      })
      // Sent raw: the name as a person types it, which the contract's client would refuse to send untrimmed.
      const moved = yield* api("/api/notes/note_3/move", { method: "POST", body: { to: { _tag: "Person", contactId: null, name: " bob " } } })
      // Bob is found by name: the note is filed under his id, with the name as the move gave it.
      const bobsNote = { ...note("note_3", bob, "Ana's sister is a nurse 👩‍⚕️", [2]), owner: { _tag: "Person", contactId: "person_2", name: "Bob" } }
      expect(moved).toEqual({ status: 200, json: { ...bobsNote, recordedAt: "1970-01-01T00:00:31.000Z" } })
      expect(yield* failureOf(client((c) => c.curation.moveNote({ ...noteAt("note_3"), payload: { to: { _tag: "Person", contactId: "person_2", name: "Bob" } } }))))
        .toEqual({ _tag: "Conflict", message: "the note is already there" })

      const lunch = note("note_2", bob, "Bob owes me lunch", [3])
      expect(yield* client((c) => c.curation.discardNote(noteAt("note_2")))).toEqual(lunch)
      expect(yield* failureOf(client((c) => c.curation.discardNote(noteAt("note_2"))))).toEqual({
        _tag: "Conflict",
        message: "the note is already discarded"
      })
      expect(yield* failureOf(client((c) => c.curation.moveNote({ ...noteAt("note_2"), payload: { to: { _tag: "Unattached" } } })))).toEqual({
        _tag: "Conflict",
        message: "a discarded note is restored before it is moved"
      })
      const accounting = yield* client((c) => c.api.accounting({ path: { id: SessionId.make(sessionId) } }))
      expect(accounting.messages.map((m) => m.dispositions)).toEqual([
        [{ _tag: "InNote", noteId: "note_1" }],
        [{ _tag: "InNote", noteId: "note_3" }],
        [{ _tag: "Discarded", noteId: "note_2" }]
      ])
      expect(yield* client((c) => c.api.personNotes({ ...personAt("person_2"), urlParams: {} }))).toEqual({ items: [bobsNote], nextCursor: null })
      expect(yield* client((c) => c.curation.restoreNote(noteAt("note_2")))).toEqual(lunch)

      // Sent raw, as typed: the server trims the name.
      expect(yield* api("/api/people/person_2/rename", { method: "POST", body: { name: "  Robert " } })).toEqual({
        status: 200,
        json: person("person_2", "Robert", 2)
      })
      expect(yield* failureOf(client((c) => c.curation.renamePerson({ ...personAt("person_2"), payload: { name: "ana" } })))).toEqual({
        _tag: "BadRequest",
        message: "Ana is another person: merge them instead"
      })
      const merge = client((c) => c.curation.mergePeople({ ...personAt("person_1"), payload: { into: PersonId.make("person_2") } }))
      expect(yield* merge).toEqual(person("person_2", "Robert", 3))
      expect(yield* failureOf(merge)).toEqual({ _tag: "NotFound", resource: "person", id: "person_1" })
      const people = client((c) => c.api.people({ urlParams: {} }))
      expect(yield* people).toEqual({ items: [person("person_2", "Robert", 3)], nextCursor: null })
      // The merge undone: Ana is back with the note that was hers; the note moved to Robert before stays his.
      expect(yield* client((c) => c.curation.unmergePeople(personAt("person_1")))).toEqual(person("person_1", "Ana", 1))
      expect(yield* failureOf(client((c) => c.curation.unmergePeople(personAt("person_1"))))).toEqual({
        _tag: "Conflict",
        message: "Ana is not merged into anyone"
      })
      expect(yield* failureOf(client((c) => c.curation.unmergePeople(personAt("person_9"))))).toEqual({
        _tag: "NotFound",
        resource: "person",
        id: "person_9"
      })
      expect(yield* people).toEqual({ items: [person("person_1", "Ana", 1), person("person_2", "Robert", 2)], nextCursor: null })
      expect(yield* client((c) => c.api.personNotes({ ...personAt("person_1"), urlParams: {} }))).toEqual({
        items: [{ ...note("note_1", ana, "Ana moved to Porto.", [1]), owner: { _tag: "Person", contactId: "person_1", name: "Ana" } }],
        nextCursor: null
      })
      expect(yield* failureOf(client((c) => c.curation.discardNote(noteAt("note_9"))))).toEqual({
        _tag: "NotFound",
        resource: "note",
        id: "note_9"
      })
      expect((yield* rebuildAndVerify).differing).toEqual([])
    }).pipe(Effect.provide(planned)))
})

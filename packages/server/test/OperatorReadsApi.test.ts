/**
 * `VERBATIM_OPERATOR_READS` over real HTTP with the bearer token (the operator): under `none`
 * another user's text is a 403 naming the setting or listed without it, counts and states kept,
 * the operator's own notes (`web:operator`) read whole, and nothing recorded; under `audited` the
 * text, with exactly one `OperatorRead` per request and user; under `all` everything, unrecorded.
 */
import { describe, expect, it } from "@effect/vitest"
import { NoteId, PersonId, SessionId, UserId } from "@verbatim/domain/Ids"
import { eventLogMessage, notReadMessage } from "@verbatim/domain/OperatorReads/Mode"
import { DateTime, Effect } from "effect"
import { client, failureOf } from "./apiClient.js"
import { alice, aliceSession, history, ids, layerFor, operatorReads, operatorSession } from "./operatorReadsFixture.js"

const refused = { _tag: "OperatorReadRefused", message: notReadMessage }
const withheld = notReadMessage
const recordedAt = DateTime.unsafeMake("1970-01-01T00:00:31.000Z")

const note = (id: string) => client((c) => c.api.note({ path: { id: NoteId.make(id) } }))
const personNotes = (id: string) => client((c) => c.api.personNotes({ path: { id: PersonId.make(id) }, urlParams: {} }))
const people = client((c) => c.api.people({ urlParams: {} }))
const questions = client((c) => c.api.questions({ urlParams: {} }))
const aliceAccounting = client((c) => c.api.accounting({ path: { id: SessionId.make(aliceSession) } }))
const aliceReminders = client((c) => c.reminders.reminders({ urlParams: { user: UserId.make(alice) } }))
const search = (q: string, user?: string) => client((c) => c.api.search({ urlParams: { q, ...(user === undefined ? {} : { user: UserId.make(user) }) } }))
const events = (limit?: number) => client((c) => c.api.events({ urlParams: limit === undefined ? {} : { limit } }))

const beaNote = {
  id: ids.beaNote,
  user: "web:operator",
  sessionId: operatorSession,
  owner: { _tag: "Person", contactId: null, name: "Bea" },
  personId: ids.beaPerson,
  body: "Bea lends me her ladder on Friday.",
  sources: [{ messageId: "web:web:operator/b1", seq: 1 }],
  recordedAt
}

/** The operator's own message, found by a search, with its note and whom that is about. */
const ladderHit = {
  messageId: "web:web:operator/b1",
  sessionId: operatorSession,
  seq: 1,
  user: "web:operator",
  text: "Bea lends me her ladder on Friday.",
  forwardedFrom: null,
  noteId: ids.beaNote,
  personId: ids.beaPerson,
  person: "Bea"
}

const anaNote = {
  id: ids.anaNote,
  user: alice,
  sessionId: aliceSession,
  owner: { _tag: "Person", contactId: null, name: "Ana Souza" },
  personId: ids.anaPerson,
  body: "Ana moved to Porto in May.\n\nShe starts at the clinic on Monday",
  sources: [{ messageId: `${alice}:1`, seq: 1 }, { messageId: `${alice}:2`, seq: 2 }],
  recordedAt
}

const reminder = {
  id: "r0yekome09yjg47vc0o2x8",
  user: alice,
  sessionId: aliceSession,
  messageId: `${alice}:2`,
  noteId: ids.anaNote,
  quote: "remind me on Sunday",
  start: 36,
  end: 55,
  dueAt: DateTime.unsafeMake("2026-01-04T09:00:00.000Z"),
  zone: "UTC",
  dueLocal: "2026-01-04T09:00",
  status: "scheduled",
  late: false
}

const question = {
  id: ids.question,
  sessionId: aliceSession,
  user: alice,
  reason: "unclear",
  status: "open",
  sources: [{ messageId: `${alice}:3`, seq: 3, text: "Ana or Tom, one of them has a cat." }],
  candidates: [{ _tag: "Person", contactId: null, name: "Ana" }, { _tag: "Person", contactId: null, name: "Tom" }]
}

/** Alice's session accounted, with the instruction cut, the message to the bot and the reminder's words as given. */
const accounting = (directive: string, instruction: string, quote: string) => ({
  sessionId: aliceSession,
  user: alice,
  status: "planned",
  messages: [
    { messageId: `${alice}:1`, seq: 1, dispositions: [{ _tag: "InNote", noteId: ids.anaNote }] },
    { messageId: `${alice}:2`, seq: 2, dispositions: [{ _tag: "InNote", noteId: ids.anaNote }, { _tag: "Instruction", kind: "directive", text: directive }] },
    { messageId: `${alice}:3`, seq: 3, dispositions: [{ _tag: "InQuestion", questionId: ids.question }] },
    { messageId: `${alice}:4`, seq: 4, dispositions: [{ _tag: "Instruction", kind: "message", text: instruction }] }
  ],
  reminders: [{ planId: "plan_2", seq: 2, quote, outcome: "scheduled", detail: null, reminderId: reminder.id, status: "scheduled" }]
})

describe("VERBATIM_OPERATOR_READS over the API", () => {
  it.effect("none: other users' text is refused or left out, counts and states kept; the operator's own read whole; nothing recorded", () =>
    Effect.gen(function*() {
      yield* history
      expect(yield* people).toEqual({
        items: [
          { id: ids.beaPerson, user: "web:operator", name: "Bea", noteCount: 1 },
          { id: ids.anaPerson, user: alice, name: "", noteCount: 1, withheld }
        ],
        nextCursor: null
      })
      expect(yield* personNotes(ids.beaPerson)).toEqual({ items: [beaNote], nextCursor: null })
      expect(yield* failureOf(personNotes(ids.anaPerson))).toEqual(refused)
      expect(yield* note(ids.beaNote)).toEqual(beaNote)
      expect(yield* failureOf(note(ids.anaNote))).toEqual(refused)
      expect(yield* failureOf(client((c) => c.api.noteAudit({ path: { id: NoteId.make(ids.anaNote) } })))).toEqual(refused)
      expect(yield* questions).toEqual({
        items: [{ ...question, sources: [{ messageId: `${alice}:3`, seq: 3, text: "" }], candidates: question.candidates.map((c) => ({ ...c, name: "" })), withheld }],
        nextCursor: null
      })
      expect(yield* aliceAccounting).toEqual({ ...accounting("", "", ""), withheld })
      expect(yield* aliceReminders).toEqual({ items: [{ ...reminder, quote: "", withheld }] })
      // Search runs over the operator's own messages alone: a hit is itself a read of the words.
      expect(yield* search("clinic")).toEqual({ hits: [], next: null })
      expect(yield* search("ladder")).toEqual({ hits: [ladderHit], next: null })
      expect(yield* failureOf(search("clinic", alice))).toEqual(refused)
      expect(yield* failureOf(events())).toEqual({ _tag: "OperatorReadRefused", message: eventLogMessage("none") })
      expect(yield* failureOf(client((c) => c.ask.ask({ payload: { question: "Where does Ana work?", user: UserId.make(alice) } })))).toEqual(refused)
      expect(yield* failureOf(client((c) => c.ask.asks({ urlParams: { user: UserId.make(alice) } })))).toEqual(refused)
      // Curation is a write: made, and answered without the text.
      const discard = client((c) => c.curation.discardNote({ path: { id: NoteId.make(ids.anaNote) } }))
      expect(yield* discard).toEqual({ ...anaNote, body: "", owner: { _tag: "Person", contactId: null, name: "" }, withheld })
      expect(yield* failureOf(discard)).toEqual({ _tag: "Conflict", message: "the note is already discarded" })
      expect(yield* client((c) => c.curation.renamePerson({ path: { id: PersonId.make(ids.anaPerson) }, payload: { name: "Ana S." } })))
        .toEqual({ id: ids.anaPerson, user: alice, name: "", noteCount: 0, withheld })
      expect(yield* operatorReads).toEqual([])
    }).pipe(Effect.provide(layerFor("none"))))

  it.effect("audited: the text, and exactly one OperatorRead per request and user, before the answer; the operator's own reads record nothing", () =>
    Effect.gen(function*() {
      yield* history
      expect(yield* note(ids.anaNote)).toEqual(anaNote)
      const first = { stream: `operator-reads-${alice}#1`, kind: "note", route: `GET /api/notes/${ids.anaNote}`, ids: [ids.anaNote], user: alice }
      expect(yield* operatorReads).toEqual([first])
      expect(yield* note(ids.beaNote)).toEqual(beaNote)
      expect(yield* search("ladder")).toEqual({ hits: [ladderHit], next: null })
      expect(yield* operatorReads).toEqual([first])
      expect(yield* people).toEqual({
        items: [{ id: ids.beaPerson, user: "web:operator", name: "Bea", noteCount: 1 }, { id: ids.anaPerson, user: alice, name: "Ana Souza", noteCount: 1 }],
        nextCursor: null
      })
      expect(yield* aliceAccounting).toEqual(accounting(", remind me on Sunday", "thanks bot", "remind me on Sunday"))
      expect(yield* aliceReminders).toEqual({ items: [reminder] })
      expect(yield* questions).toEqual({ items: [question], nextCursor: null })
      // The log cannot be recorded user by user: it stays closed.
      expect(yield* failureOf(events())).toEqual({ _tag: "OperatorReadRefused", message: eventLogMessage("audited") })
      expect(yield* operatorReads).toEqual([
        first,
        { stream: `operator-reads-${alice}#2`, kind: "people", route: "GET /api/people", ids: [ids.anaPerson], user: alice },
        { stream: `operator-reads-${alice}#3`, kind: "session", route: `GET /api/sessions/${aliceSession}/accounting`, ids: [aliceSession], user: alice },
        { stream: `operator-reads-${alice}#4`, kind: "reminders", route: "GET /api/reminders", ids: [reminder.id], user: alice },
        { stream: `operator-reads-${alice}#5`, kind: "questions", route: "GET /api/questions", ids: [ids.question], user: alice }
      ])
    }).pipe(Effect.provide(layerFor("audited"))))

  it.effect("all: every user's text, the event log too, and nothing recorded", () =>
    Effect.gen(function*() {
      yield* history
      expect(yield* note(ids.anaNote)).toEqual(anaNote)
      expect(yield* aliceAccounting).toEqual(accounting(", remind me on Sunday", "thanks bot", "remind me on Sunday"))
      expect((yield* events(1)).events.map((e) => e.streamId)).toEqual([`session-${operatorSession}`])
      expect(yield* operatorReads).toEqual([])
    }).pipe(Effect.provide(layerFor("all"))))
})

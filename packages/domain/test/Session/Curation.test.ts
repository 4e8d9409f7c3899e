/** A note's curation by its user: moved, split at a message boundary, discarded and restored, each once. */
import { describe, it } from "@effect/vitest"
import type { Event } from "../../src/Events.js"
import { countingIds, NoteId, PersonId } from "../../src/Ids.js"
import { Command, rejected } from "../../src/Session/Commands.js"
import { noteRecorded, personAdded, planApplied, planProduced } from "./Decided.js"
import { at, closedSession, person, plan, sessionId, sources, spec, stranger, unattached, user } from "./fixtures.js"

const filed = [
  ...closedSession("Ana moved to Porto", "She starts at the bank in May", "Tom called"),
  planProduced("plan_1", plan({}), 1, 3),
  noteRecorded("note_1", person("Ana"), "person-ana", [1, 2]),
  noteRecorded("note_2", unattached, null, [3]),
  planApplied("plan_1", ["note_1", "note_2"], [])
]
const ana = { personId: PersonId.make("person-ana"), name: "Ana" }
const tom = { personId: PersonId.make("person-tom"), name: "Tom" }
const now = at(1000)
const note = (id: string) => NoteId.make(id)

const move = (noteId: string, to: Command & { _tag: "MoveNote" } extends { to: infer T } ? T : never, asker = user as typeof user | null) =>
  Command.MoveNote({ noteId: note(noteId), to, asker, known: [ana, tom], ids: countingIds(), now })
const discard = (noteId: string, yes: boolean, asker = user as typeof user | null) =>
  Command.DiscardNote({ noteId: note(noteId), discard: yes, asker, now })
const split = (noteId: string, atSeq: number, asker = user as typeof user | null) =>
  Command.SplitNote({ noteId: note(noteId), atSeq, asker, ids: { next: (prefix) => `${prefix}_split` }, now })

const moved = (noteId: string, personId: string | null, name: string): Event => ({
  _tag: "NoteMoved",
  noteId: note(noteId),
  sessionId,
  personId: personId === null ? null : PersonId.make(personId),
  owner: personId === null ? unattached : { _tag: "Person", contactId: PersonId.make(personId), name },
  movedAt: now
})
const discarded = (noteId: string): Event => ({ _tag: "NoteDiscarded", noteId: note(noteId), sessionId, discardedAt: now })
const restored = (noteId: string): Event => ({ _tag: "NoteRestored", noteId: note(noteId), sessionId, restoredAt: now })

describe("MoveNote", () => {
  it("files a note under a person of the user's, by id or by name in any case, or as the sender's own", () => {
    spec.given(filed).when(move("note_2", person("Tom", "person-tom"))).then([moved("note_2", "person-tom", "Tom")])
    spec.given(filed).when(move("note_2", person(" TOM "))).then([moved("note_2", "person-tom", "Tom")])
    spec.given(filed).when(move("note_1", unattached)).then([moved("note_1", null, "")])
  })

  it("adds a person new to the user", () => {
    spec.given(filed).when(move("note_2", person(" Carla "))).then([personAdded("person_1", "Carla"), moved("note_2", "person_1", "Carla")])
  })

  it("refuses a move that changes nothing, so a form sent twice moves once", () => {
    spec.given([...filed, moved("note_2", "person-tom", "Tom")]).when(move("note_2", person("Tom", "person-tom")))
      .thenRejects(rejected("unchanged", "the note is already there"))
    spec.given(filed).when(move("note_1", person("ana"))).thenRejects(rejected("unchanged", "the note is already there"))
  })

  it("refuses an empty name, another user's note, an unknown note and a discarded note", () => {
    spec.given(filed).when(move("note_2", person("  "))).thenRejects(rejected("invalid", "a person's name must not be empty"))
    spec.given(filed).when(move("note_2", person("Tom"), stranger)).thenRejects(rejected("not-yours"))
    spec.given(filed).when(move("note_9", person("Tom"))).thenRejects(rejected("not-found"))
    spec.given([...filed, discarded("note_2")]).when(move("note_2", person("Tom")))
      .thenRejects(rejected("discarded", "a discarded note is restored before it is moved"))
  })

  it("refuses a new person's name the store cannot keep exactly (U+0000, a lone surrogate)", () => {
    spec.given(filed).when(move("note_2", person("Nul\u0000name"))).thenRejects(rejected("invalid", "the name contains U+0000 (NUL), which is not text"))
    spec.given(filed).when(move("note_2", person("Half \ud800"))).thenRejects(rejected("invalid", "the name contains a lone surrogate U+D800, which is not text"))
  })

  it("takes the operator's move for any user's note", () => {
    spec.given(filed).when(move("note_2", person("Tom"), null)).then([moved("note_2", "person-tom", "Tom")])
  })
})

describe("DiscardNote", () => {
  it("discards a note, then restores it, each once", () => {
    spec.given(filed).when(discard("note_1", true)).then([discarded("note_1")])
    spec.given([...filed, discarded("note_1")]).when(discard("note_1", true)).thenRejects(rejected("unchanged", "the note is already discarded"))
    spec.given([...filed, discarded("note_1")]).when(discard("note_1", false)).then([restored("note_1")])
    spec.given(filed).when(discard("note_1", false)).thenRejects(rejected("unchanged", "the note is not discarded"))
  })

  it("refuses another user's note", () => {
    spec.given(filed).when(discard("note_1", true, stranger)).thenRejects(rejected("not-yours"))
  })
})

describe("SplitNote", () => {
  it("moves the messages from the split on to a new note that keeps the owner", () => {
    spec.given(filed).when(split("note_1", 2)).then([
      { _tag: "NoteSplit", noteId: note("note_1"), newNoteId: note("note_split"), sessionId, sources: sources(2), splitAt: now }
    ])
  })

  it("splits the new note again, and a moved half moves alone", () => {
    const halves: Array<Event> = [
      ...closedSession("one", "two", "three"),
      planProduced("plan_1", plan({}), 1, 3),
      noteRecorded("note_1", person("Ana"), "person-ana", [1, 2, 3]),
      planApplied("plan_1", ["note_1"], []),
      { _tag: "NoteSplit", noteId: note("note_1"), newNoteId: note("note_7"), sessionId, sources: sources(2, 3), splitAt: now }
    ]
    spec.given(halves).when(split("note_7", 3)).then([
      { _tag: "NoteSplit", noteId: note("note_7"), newNoteId: note("note_split"), sessionId, sources: sources(3), splitAt: now }
    ])
    spec.given(halves).when(split("note_1", 2)).thenRejects(rejected("invalid", "message 2 is not in the note"))
    spec.given(halves).when(move("note_7", person("Tom"))).then([moved("note_7", "person-tom", "Tom")])
  })

  it("refuses a split before the first message, at a message not in the note, and of a discarded note", () => {
    spec.given(filed).when(split("note_1", 1)).thenRejects(rejected("unchanged", "a note is split before a message other than its first"))
    spec.given(filed).when(split("note_1", 3)).thenRejects(rejected("invalid", "message 3 is not in the note"))
    spec.given([...filed, discarded("note_1")]).when(split("note_1", 2))
      .thenRejects(rejected("discarded", "a discarded note is restored before it is split"))
  })
})

/**
 * A promoted plan keeps the user's corrections: each is re-applied where it still means the same
 * thing, and asked where the new plan grouped the messages differently.
 */
import { at } from "@verbatim/testkit/Given"
import { describe, it } from "@effect/vitest"
import type { Event } from "../../src/Events.js"
import { NoteId } from "../../src/Ids.js"
import { noteRecorded, planApplied, planProduced, questionAnswered, questionParked, replyQueued } from "./Decided.js"
import { chunk, closedSession, person, personId, plan, recordPlans, sessionId, sources, spec, unattached } from "./fixtures.js"

const texts = ["Ana plays the cello", "she tours in May", "Bob got a dog", "Bob's dog is a beagle"]
const known = [
  { personId: personId("p-ana"), name: "Ana" },
  { personId: personId("p-anna"), name: "Anna" },
  { personId: personId("p-bob"), name: "Bob" }
]
const ana = person("Ana", "p-ana")
const anna = person("Anna", "p-anna")
const bob = person("Bob", "p-bob")

const oldPlan = plan({
  people: [
    { contactId: "p-ana", name: "Ana", notes: [{ sourceItemSeqs: [1, 2], directives: [] }] },
    { contactId: "p-bob", name: "Bob", notes: [{ sourceItemSeqs: [3, 4], directives: [] }] }
  ]
})

/** The live plan `plan_a`: Ana's two messages and Bob's two. */
const planned: ReadonlyArray<Event> = [
  ...closedSession(...texts),
  planProduced("plan_a", oldPlan, 1, 4),
  noteRecorded("note_a", ana, "p-ana", [1, 2], { plan: "plan_a" }),
  noteRecorded("note_b", bob, "p-bob", [3, 4], { plan: "plan_a" }),
  planApplied("plan_a", ["note_a", "note_b"])
]

const moved = (note: string, owner: typeof anna, carriedFrom?: string): Event => ({
  _tag: "NoteMoved",
  noteId: NoteId.make(note),
  sessionId,
  personId: owner._tag === "Person" && owner.contactId !== null ? personId(owner.contactId) : null,
  owner,
  movedAt: carriedFrom === undefined ? at(50) : at(100),
  ...(carriedFrom === undefined ? {} : { carriedFrom: NoteId.make(carriedFrom) })
})
const split = (note: string, into: string, seqs: ReadonlyArray<number>, carriedFrom?: string): Event => ({
  _tag: "NoteSplit",
  noteId: NoteId.make(note),
  newNoteId: NoteId.make(into),
  sessionId,
  sources: sources(...seqs),
  splitAt: carriedFrom === undefined ? at(50) : at(100),
  ...(carriedFrom === undefined ? {} : { carriedFrom: NoteId.make(carriedFrom) })
})
const discarded = (note: string, carriedFrom?: string): Event => ({
  _tag: "NoteDiscarded",
  noteId: NoteId.make(note),
  sessionId,
  discardedAt: carriedFrom === undefined ? at(50) : at(100),
  ...(carriedFrom === undefined ? {} : { carriedFrom: NoteId.make(carriedFrom) })
})

/** `history` promoted to `newPlan`: decided at the revision the history ends at. */
const promoted = (history: ReadonlyArray<Event>, newPlan: ReturnType<typeof plan>, people = known) =>
  spec.given(history).when(recordPlans([chunk(newPlan, 1, 4)], history.length, { known: people, replan: true }))

const samePlan = oldPlan
const together = plan({
  people: [{ contactId: "p-ana", name: "Ana", notes: [{ sourceItemSeqs: [1, 2, 3, 4], directives: [] }] }]
})
const choices = (question: string, ...labels: ReadonlyArray<string>) =>
  labels.map((label, index) => ({ label, data: `a:${question}:${index}` }))

describe("a promoted plan carries the user's corrections", () => {
  it("moves the new note of the same messages to the person the user chose", () => {
    promoted([...planned, moved("note_a", anna)], samePlan).then([
      planProduced("plan_1", samePlan, 1, 4, ["plan_a"]),
      noteRecorded("note_1", ana, "p-ana", [1, 2]),
      noteRecorded("note_2", bob, "p-bob", [3, 4]),
      planApplied("plan_1", ["note_1", "note_2"]),
      moved("note_1", anna, "note_a"),
      replyQueued("reply_1", "Added 2 notes: Anna, Bob.")
    ])
  })

  it("cuts the new note at the same boundary, then discards the part the user set aside", () => {
    promoted([...planned, split("note_b", "note_c", [4]), discarded("note_c")], samePlan).then([
      planProduced("plan_1", samePlan, 1, 4, ["plan_a"]),
      noteRecorded("note_1", ana, "p-ana", [1, 2]),
      noteRecorded("note_2", bob, "p-bob", [3, 4]),
      planApplied("plan_1", ["note_1", "note_2"]),
      split("note_2", "note_3", [4], "note_c"),
      discarded("note_3", "note_c"),
      replyQueued("reply_1", "Added 2 notes: Ana, Bob.")
    ])
  })

  it("cuts a note the new plan grouped wider at the same boundary, so a moved part fits again", () => {
    promoted([...planned, split("note_b", "note_c", [4]), moved("note_c", anna)], together).then([
      planProduced("plan_1", together, 1, 4, ["plan_a"]),
      noteRecorded("note_1", ana, "p-ana", [1, 2, 3, 4]),
      planApplied("plan_1", ["note_1"]),
      split("note_1", "note_2", [4], "note_c"),
      moved("note_2", anna, "note_c"),
      replyQueued("reply_1", "Added 2 notes: Ana, Anna.")
    ])
  })

  it("asks when the new plan grouped the moved messages differently, naming both places", () => {
    promoted([...planned, moved("note_a", anna)], together).then([
      planProduced("plan_1", together, 1, 4, ["plan_a"]),
      noteRecorded("note_1", ana, "p-ana", [3, 4]),
      questionParked("q_1", "plan_1", "corrected", [1, 2], [anna, ana]),
      planApplied("plan_1", ["note_1"], ["q_1"]),
      replyQueued("reply_1", "Added 1 note: Ana. 1 question."),
      replyQueued(
        "reply_2",
        "After an update, these messages are filed under Ana; you had moved them to Anna. Where do they belong?\n\n«Ana plays the cello»\n\n«she tours in May»",
        choices("q_1", "Anna", "Ana", "Keep as my own note"),
        "q_1"
      )
    ])
  })

  it("needs nothing when the new plan files the moved messages under that person already", () => {
    const underAnna = plan({
      people: [
        { contactId: "p-anna", name: "Anna", notes: [{ sourceItemSeqs: [1], directives: [] }, { sourceItemSeqs: [2], directives: [] }] },
        { contactId: "p-bob", name: "Bob", notes: [{ sourceItemSeqs: [3, 4], directives: [] }] }
      ]
    })
    promoted([...planned, moved("note_a", anna)], underAnna).then([
      planProduced("plan_1", underAnna, 1, 4, ["plan_a"]),
      noteRecorded("note_1", anna, "p-anna", [1]),
      noteRecorded("note_2", anna, "p-anna", [2]),
      noteRecorded("note_3", bob, "p-bob", [3, 4]),
      planApplied("plan_1", ["note_1", "note_2", "note_3"]),
      replyQueued("reply_1", "Added 3 notes: Anna, Bob.")
    ])
  })

  it("keeps a discard of messages the new plan grouped differently: they leave its note, set aside", () => {
    promoted([...planned, discarded("note_a")], together).then([
      planProduced("plan_1", together, 1, 4, ["plan_a"]),
      noteRecorded("note_1", ana, "p-ana", [3, 4]),
      noteRecorded("note_2", ana, "p-ana", [1, 2]),
      planApplied("plan_1", ["note_1", "note_2"]),
      discarded("note_2", "note_a"),
      replyQueued("reply_1", "Added 1 note: Ana.")
    ])
  })

  it("asks again a correction an earlier promotion asked and the user has not answered", () => {
    const asked = [
      ...planned,
      moved("note_a", anna),
      planProduced("plan_b", together, 1, 4, ["plan_a"]),
      noteRecorded("note_x", ana, "p-ana", [3, 4], { plan: "plan_b" }),
      questionParked("q_b", "plan_b", "corrected", [1, 2], [anna, ana]),
      planApplied("plan_b", ["note_x"], ["q_b"])
    ]
    promoted(asked, samePlan).then([
      planProduced("plan_1", samePlan, 1, 4, ["plan_b"]),
      // The plan's note of messages 1 and 2 (note_1) is asked about instead.
      noteRecorded("note_2", bob, "p-bob", [3, 4]),
      questionParked("q_1", "plan_1", "corrected", [1, 2], [anna, ana]),
      planApplied("plan_1", ["note_2"], ["q_1"]),
      replyQueued("reply_1", "Added 1 note: Bob. 1 question."),
      replyQueued(
        "reply_2",
        "After an update, these messages are filed under Ana; you had moved them to Anna. Where do they belong?\n\n«Ana plays the cello»\n\n«she tours in May»",
        choices("q_1", "Anna", "Ana", "Keep as my own note"),
        "q_1"
      )
    ])
  })

  it("leaves an answer to a correction where it filed the messages: they are not planned again", () => {
    const answered = [
      ...planned,
      moved("note_a", anna),
      planProduced("plan_b", together, 1, 4, ["plan_a"]),
      noteRecorded("note_x", ana, "p-ana", [3, 4], { plan: "plan_b" }),
      questionParked("q_b", "plan_b", "corrected", [1, 2], [anna, ana]),
      planApplied("plan_b", ["note_x"], ["q_b"]),
      questionAnswered("q_b", anna),
      noteRecorded("note_y", anna, "p-anna", [1, 2], { plan: null, question: "q_b" })
    ]
    const bobOnly = plan({ people: [{ contactId: "p-bob", name: "Bob", notes: [{ sourceItemSeqs: [3, 4], directives: [] }] }] })
    promoted(answered, bobOnly).then([
      planProduced("plan_1", bobOnly, 1, 4, ["plan_b"]),
      noteRecorded("note_1", bob, "p-bob", [3, 4]),
      planApplied("plan_1", ["note_1"]),
      replyQueued("reply_1", "Added 1 note: Bob.")
    ])
  })

  it("moves to the person by id after a rename, under their name now", () => {
    const renamed = [{ personId: personId("p-ana"), name: "Ana" }, { personId: personId("p-anna"), name: "Anna Lima" }, known[2]!]
    const lima = person("Anna Lima", "p-anna")
    promoted([...planned, moved("note_a", anna)], samePlan, renamed).then([
      planProduced("plan_1", samePlan, 1, 4, ["plan_a"]),
      noteRecorded("note_1", ana, "p-ana", [1, 2]),
      noteRecorded("note_2", bob, "p-bob", [3, 4]),
      planApplied("plan_1", ["note_1", "note_2"]),
      moved("note_1", lima, "note_a"),
      replyQueued("reply_1", "Added 2 notes: Anna Lima, Bob.")
    ])
  })

  it("carries a move to the sender's own notes", () => {
    promoted([...planned, moved("note_b", unattached)], samePlan).then([
      planProduced("plan_1", samePlan, 1, 4, ["plan_a"]),
      noteRecorded("note_1", ana, "p-ana", [1, 2]),
      noteRecorded("note_2", bob, "p-bob", [3, 4]),
      planApplied("plan_1", ["note_1", "note_2"]),
      moved("note_2", unattached, "note_b"),
      replyQueued("reply_1", "Added 2 notes: Ana, your own notes.")
    ])
  })

  it("adds no one for a move the new plan fits: the person is the user's already", () => {
    promoted([...planned, moved("note_a", person("Carla", "p-carla"))], samePlan, [...known, { personId: personId("p-carla"), name: "Carla" }]).then([
      planProduced("plan_1", samePlan, 1, 4, ["plan_a"]),
      noteRecorded("note_1", ana, "p-ana", [1, 2]),
      noteRecorded("note_2", bob, "p-bob", [3, 4]),
      planApplied("plan_1", ["note_1", "note_2"]),
      moved("note_1", person("Carla", "p-carla"), "note_a"),
      replyQueued("reply_1", "Added 2 notes: Carla, Bob.")
    ])
  })
})

describe("a carried move finds its person after a merge", () => {
  it("moves to whom the chosen person was merged into, even when renamed first", () => {
    // Anna was renamed "Anna Lima", then merged into Ana: the move to her stands for Ana.
    const merged = [{ personId: personId("p-ana"), name: "Ana" }, { personId: personId("p-ana"), name: "Anna Lima", mergedFrom: personId("p-anna") }, known[2]!]
    promoted([...planned, moved("note_b", anna)], samePlan, merged).then([
      planProduced("plan_1", samePlan, 1, 4, ["plan_a"]),
      noteRecorded("note_1", ana, "p-ana", [1, 2]),
      noteRecorded("note_2", bob, "p-bob", [3, 4]),
      planApplied("plan_1", ["note_1", "note_2"]),
      moved("note_2", ana, "note_b"),
      replyQueued("reply_1", "Added 2 notes: Ana.")
    ])
  })
})

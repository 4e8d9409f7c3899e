/**
 * A hand-written session log for the evaluation tests: four messages planned under plan_1 (Ana,
 * Tom, a question between them, a bot command), then the user's corrections.
 */
import { user, at } from "@verbatim/testkit/Given"
import type { Event } from "../../src/Events.js"
import { NoteId } from "../../src/Ids.js"
import { instruction, noteRecorded, personAdded, planApplied, planProduced, questionAnswered, questionParked } from "../Session/Decided.js"
import { closedSession, edited, person, personId, plan, sessionId, unattached } from "../Session/fixtures.js"

export const texts = [
  "Ana starts at the clinic in March.",
  "Tom moved to Lisbon, remind me to call him",
  "lunch with Ana and Tom on Tuesday",
  "/done"
]

/** The raw plan of plan_1. */
export const livePlan = plan({
  people: [
    { contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [] }] },
    { contactId: null, name: "Tom", notes: [{ sourceItemSeqs: [2], directives: [", remind me to call him"] }] }
  ],
  unclear: [{ sourceItemSeqs: [3], candidates: ["Ana", "Tom"] }],
  botMessages: [4]
})

/** The session as the plan filed it, before the user touched anything. */
export const planned: ReadonlyArray<Event> = [
  ...closedSession(...texts),
  planProduced("plan_1", livePlan, 1, 4),
  personAdded("person_1", "Ana"),
  personAdded("person_2", "Tom"),
  noteRecorded("note_1", person("Ana"), "person_1", [1]),
  noteRecorded("note_2", person("Tom"), "person_2", [2]),
  questionParked("q_1", "plan_1", "unclear", [3], [person("Ana"), person("Tom")]),
  instruction("plan_1", 4, "message", "/done"),
  planApplied("plan_1", ["note_1", "note_2"], ["q_1"])
]

/** The user answers q_1 with Ana, moves note_2 to their own notes and edits message 1. */
export const corrected: ReadonlyArray<Event> = [
  ...planned,
  questionAnswered("q_1", person("Ana", "person_1")),
  noteRecorded("note_3", person("Ana", "person_1"), "person_1", [3], { plan: null, question: "q_1" }),
  { _tag: "NoteMoved", noteId: NoteId.make("note_2"), sessionId, personId: null, owner: unattached, movedAt: at(1000) },
  edited(1, "Ana starts at the clinic in April.", 1100)
]

/** The user's people stream (and the people the plan added) for these sessions. */
export const people: ReadonlyArray<Event> = [personAdded("person_1", "Ana"), personAdded("person_2", "Tom")]

export const merged = (from: string, into: string): Event => ({
  _tag: "PeopleMerged",
  user,
  from: personId(from),
  into: personId(into),
  mergedAt: at(2000)
})

import { describe, expect, it } from "@effect/vitest"
import * as Directory from "../../src/Eval/Directory.js"
import { sessionLabels } from "../../src/Eval/Labels.js"
import { NoteId, QuestionId } from "../../src/Ids.js"
import { at, user } from "@verbatim/testkit/Given"
import type { Event } from "../../src/Events.js"
import { noteRecorded, personAdded, planApplied, planProduced } from "../Session/Decided.js"
import { closedSession, messageId, person, personId, plan, sessionId, sources } from "../Session/fixtures.js"
import { corrected, merged, people, planned } from "./EvalLog.js"

const ana = { _tag: "Person", personId: personId("person_1"), name: "Ana" } as const
const tom = { _tag: "Person", personId: personId("person_2"), name: "Tom" } as const
const label = (seq: number, target: unknown, basis: string) => ({ seq, messageId: messageId(seq), target, basis })

describe("labels from the log", () => {
  it("a plan left alone is accepted as filed; an open question labels nothing", () => {
    expect(sessionLabels(planned, Directory.make(people))).toEqual({
      sessionId,
      messages: [label(1, ana, "plan"), label(2, tom, "plan"), label(3, null, "open"), label(4, { _tag: "Bot" }, "plan")],
      answered: [],
      edited: []
    })
  })

  it("a question answered with Ana, a note moved and a message edited are exactly the labels", () => {
    expect(sessionLabels(corrected, Directory.make(people))).toEqual({
      sessionId,
      messages: [label(1, ana, "plan"), label(2, { _tag: "Unattached" }, "moved"), label(3, ana, "answer"), label(4, { _tag: "Bot" }, "plan")],
      answered: [{ questionId: QuestionId.make("q_1"), seqs: [3], answer: ana }],
      edited: [1]
    })
  })

  it("a discarded note labels nothing; restored, it is accepted again", () => {
    const discarded = { _tag: "NoteDiscarded", noteId: NoteId.make("note_1"), sessionId, discardedAt: at(1200) } as const
    const restored = { _tag: "NoteRestored", noteId: NoteId.make("note_1"), sessionId, restoredAt: at(1300) } as const
    expect(sessionLabels([...corrected, discarded], Directory.make(people)).messages[0]).toEqual(label(1, null, "discarded"))
    expect(sessionLabels([...corrected, discarded, restored], Directory.make(people)).messages[0]).toEqual(label(1, ana, "plan"))
  })

  it("a note split: each half is accepted where it stands, a moved half where it was moved", () => {
    const split: ReadonlyArray<Event> = [
      ...closedSession("Ana moved to Porto", "Tom's dog is Rex", "Tom plays chess"),
      planProduced("plan_1", plan({}), 1, 3),
      personAdded("person_1", "Ana"),
      personAdded("person_2", "Tom"),
      noteRecorded("note_1", person("Ana"), "person_1", [1, 2]),
      noteRecorded("note_2", person("Tom"), "person_2", [3]),
      planApplied("plan_1", ["note_1", "note_2"], []),
      { _tag: "NoteSplit", noteId: NoteId.make("note_1"), newNoteId: NoteId.make("note_9"), sessionId, sources: sources(2), splitAt: at(1000) }
    ]
    const moved: Event = { _tag: "NoteMoved", noteId: NoteId.make("note_9"), sessionId, personId: personId("person_2"), owner: person("Tom", "person_2"), movedAt: at(1100) }
    expect(sessionLabels(split, Directory.make(people)).messages).toEqual([label(1, ana, "plan"), label(2, ana, "plan"), label(3, tom, "plan")])
    expect(sessionLabels([...split, moved], Directory.make(people)).messages).toEqual([label(1, ana, "plan"), label(2, tom, "moved"), label(3, tom, "plan")])
  })

  it("people merged and renamed: notes and answers are labelled with whom the person became", () => {
    const renamed = {
      _tag: "PersonRenamed",
      personId: personId("person_3"),
      user,
      name: "Ana Lima",
      renamedAt: at(1500)
    } as const
    const directory = Directory.make([...people, personAdded("person_3", "Anita"), renamed, merged("person_1", "person_3")])
    const anaLima = { _tag: "Person", personId: personId("person_3"), name: "Ana Lima" } as const
    expect(sessionLabels(corrected, directory)).toEqual({
      sessionId,
      messages: [label(1, anaLima, "plan"), label(2, { _tag: "Unattached" }, "moved"), label(3, anaLima, "answer"), label(4, { _tag: "Bot" }, "plan")],
      answered: [{ questionId: QuestionId.make("q_1"), seqs: [3], answer: anaLima }],
      edited: [1]
    })
  })
})

import { describe, expect, it } from "@effect/vitest"
import * as Directory from "../../src/Eval/Directory.js"
import { sessionLabels } from "../../src/Eval/Labels.js"
import { NoteId, QuestionId } from "../../src/Ids.js"
import { at, user } from "@verbatim/testkit/Given"
import { personAdded } from "../Session/Decided.js"
import { messageId, personId, sessionId } from "../Session/fixtures.js"
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

import { describe, expect, it } from "@effect/vitest"
import { applyPlan } from "../../src/ApplyPlan/ApplyPlan.js"
import * as Directory from "../../src/Eval/Directory.js"
import { sessionLabels } from "../../src/Eval/Labels.js"
import { agreement, scoreSession } from "../../src/Eval/Score.js"
import type { Plan } from "../../src/Plan.js"
import * as SessionState from "../../src/Session/State.js"
import { personId, plan } from "../Session/fixtures.js"
import { corrected, people } from "./EvalLog.js"

const directory = Directory.make(people)
const labels = sessionLabels(corrected, directory)
const messages = SessionState.fold(corrected).messages
const score = (candidate: Plan) => scoreSession(labels, [applyPlan(messages, candidate)], directory)

const ana = { _tag: "Person", personId: personId("person_1"), name: "Ana" } as const
const tom = { _tag: "Person", personId: personId("person_2"), name: "Tom" } as const
const unattached = { _tag: "Unattached" } as const
const bot = { _tag: "Bot" } as const
const note = (...seqs: Array<number>) => ({ sourceItemSeqs: seqs, directives: [] })

/** Seqs 1, 2 and 4 as the user accepted them; seq 3 is where the candidates differ. */
const candidate = (three: Partial<Plan>): Plan => {
  const base = plan({ people: [{ contactId: "person_1", name: "Ana", notes: [note(1)] }], unattached: [note(2)], botMessages: [4] })
  return { ...base, ...three, people: [...base.people, ...(three.people ?? [])] }
}

const settled = [
  { seq: 1, label: ana, basis: "plan", candidate: ana, verdict: "correct" },
  { seq: 2, label: unattached, basis: "moved", candidate: unattached, verdict: "correct" }
]
const four = { seq: 4, label: bot, basis: "plan", candidate: bot, verdict: "correct" }

describe("scoring a candidate against the labels", () => {
  it("filing the answered message under Ana (a new name that is hers) is correct", () => {
    const scored = score(candidate({ people: [{ contactId: null, name: "ana", notes: [note(3)] }] }))
    expect(scored).toEqual({
      messages: [...settled, { seq: 3, label: ana, basis: "answer", candidate: ana, verdict: "correct" }, four],
      tally: { correct: 4, wrong: 0, asked: 0, unlabelled: 0 }
    })
    expect(agreement(scored.tally)).toBe(1)
  })

  it("filing it under Tom is wrong", () => {
    const scored = score(candidate({ people: [{ contactId: "person_2", name: "Tom", notes: [note(3)] }] }))
    expect(scored).toEqual({
      messages: [...settled, { seq: 3, label: ana, basis: "answer", candidate: tom, verdict: "wrong" }, four],
      tally: { correct: 3, wrong: 1, asked: 0, unlabelled: 0 }
    })
    expect(agreement(scored.tally)).toBe(0.75)
  })

  it("asking again is asked; a contest between Ana and Tom is asked too", () => {
    const unclear = score(candidate({ unclear: [{ sourceItemSeqs: [3], candidates: ["Ana", "Tom"] }] }))
    expect(unclear).toEqual({
      messages: [...settled, { seq: 3, label: ana, basis: "answer", candidate: { _tag: "Question", reason: "unclear" }, verdict: "asked" }, four],
      tally: { correct: 3, wrong: 0, asked: 1, unlabelled: 0 }
    })
    const contested = score(candidate({
      people: [{ contactId: "person_1", name: "Ana", notes: [note(3)] }, { contactId: "person_2", name: "Tom", notes: [note(3)] }]
    }))
    expect(contested.messages[2]).toEqual({ seq: 3, label: ana, basis: "answer", candidate: { _tag: "Question", reason: "contested" }, verdict: "asked" })
  })

  it("a new person where the user filed it under no one is wrong; a message the user discarded is unlabelled", () => {
    const scored = scoreSession(
      { ...labels, messages: labels.messages.map((m) => (m.seq === 1 ? { ...m, target: null, basis: "discarded" } : m)) },
      [applyPlan(messages, plan({ people: [{ contactId: null, name: "Rui", notes: [note(1, 2, 3)] }], botMessages: [4] }))],
      directory
    )
    const rui = { _tag: "Person", personId: null, name: "Rui" } as const
    expect(scored).toEqual({
      messages: [
        { seq: 1, label: null, basis: "discarded", candidate: rui, verdict: "unlabelled" },
        { seq: 2, label: unattached, basis: "moved", candidate: rui, verdict: "wrong" },
        { seq: 3, label: ana, basis: "answer", candidate: rui, verdict: "wrong" },
        four
      ],
      tally: { correct: 1, wrong: 2, asked: 0, unlabelled: 1 }
    })
  })
})

import { describe, expect, it } from "@effect/vitest"
import { applyPlan, type Decisions } from "../../src/ApplyPlan/ApplyPlan.js"
import * as Directory from "../../src/Eval/Directory.js"
import { checkInvariants } from "../../src/Eval/Invariants.js"
import { sessionLabels } from "../../src/Eval/Labels.js"
import * as SessionState from "../../src/Session/State.js"
import { messageId, personId } from "../Session/fixtures.js"
import { corrected, livePlan, people } from "./EvalLog.js"

const directory = Directory.make(people)
const labels = sessionLabels(corrected, directory)
const messages = SessionState.fold(corrected).messages
const live = applyPlan(messages, livePlan)

describe("invariants of a replayed plan", () => {
  it("applyPlan's decisions keep every invariant and make no one new", () => {
    expect(checkInvariants(messages, [live], directory, labels)).toEqual({ violations: [], personCreations: [] })
  })

  it("a body that is not its slices, a broken tiling, a cut its message lacks and a message in two places are each reported", () => {
    const tampered: Decisions = {
      ...live,
      notes: [
        { ...live.notes[0]!, body: "Ana starts at the clinic in May." },
        { ...live.notes[1]!, segments: [{ _tag: "Slice", messageId: messageId(2), start: 0, end: 5 }], body: "Tom m" }
      ],
      questions: [...live.questions, { reason: "unplanned", seqs: [1], messageIds: [messageId(1)], candidates: [] }],
      instructions: [...live.instructions, { seq: 2, messageId: messageId(2), kind: "directive", text: "call her" }]
    }
    expect(checkInvariants(messages, [tampered], directory, labels)).toEqual({
      violations: [
        { _tag: "BodyNotSlices", seqs: [1] },
        { _tag: "BodyNotSlices", seqs: [2] },
        { _tag: "TilingBroken", seq: 2 },
        { _tag: "CutAbsent", seq: 2, text: "call her" },
        { _tag: "Unaccounted", seq: 1, places: 2 }
      ],
      personCreations: []
    })
  })

  it("a new person for messages the user filed under one they had raises the duplicate alarm; a new person elsewhere is only counted", () => {
    const plan = {
      ...livePlan,
      people: [
        { contactId: null, name: "Ana Lima", notes: [{ sourceItemSeqs: [1], directives: [] }] },
        { contactId: null, name: "Rui", notes: [{ sourceItemSeqs: [2], directives: [] }] }
      ]
    }
    expect(checkInvariants(messages, [applyPlan(messages, plan)], directory, labels)).toEqual({
      violations: [{ _tag: "DuplicatePerson", name: "Ana Lima", existing: personId("person_1"), seqs: [1] }],
      personCreations: ["Ana Lima", "Rui"]
    })
  })
})

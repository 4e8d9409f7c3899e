import { describe, expect, it } from "@effect/vitest"
import { applyPlan } from "@verbatim/domain/ApplyPlan/ApplyPlan"
import * as Directory from "@verbatim/domain/Eval/Directory"
import type { MessageId } from "@verbatim/domain/Ids"
import type { Plan } from "@verbatim/domain/Plan"
import { noiseFloor, stability } from "../src/Replay/Stability.js"

const messages = ["Ana got the job", "Tom sold his car", "lunch with both on Friday", "/done"].map((text, i) => ({
  id: `m${i + 1}` as MessageId,
  seq: i + 1,
  text
}))
const note = (...seqs: Array<number>) => ({ sourceItemSeqs: seqs, directives: [] })
const plan = (three: Partial<Plan>): Plan => ({
  people: [{ contactId: null, name: "Ana", notes: [note(1)] }, { contactId: null, name: "Tom", notes: [note(2)] }, ...(three.people ?? [])],
  unattached: three.unattached ?? [],
  unclear: three.unclear ?? [],
  botMessages: [4]
})
const run = (three: Partial<Plan>) => [applyPlan(messages, plan(three))]
const people = Directory.make([])

describe("how often a prompt agrees with itself", () => {
  it("repeats that place every message alike are stable; one that moves a message, or asks instead, is not", () => {
    const mine = run({ unattached: [note(3)] })
    expect(stability([1, 2, 3, 4], [mine, run({ unattached: [note(3)] }), mine], people)).toEqual({ runs: 3, stable: 4, messages: 4 })
    expect(stability([1, 2, 3, 4], [mine, run({ people: [{ contactId: null, name: "tom", notes: [note(3)] }] })], people))
      .toEqual({ runs: 2, stable: 3, messages: 4 })
    expect(stability([1, 2, 3, 4], [mine, mine, run({ unclear: [{ sourceItemSeqs: [3], candidates: ["Ana", "Tom"] }] })], people))
      .toEqual({ runs: 3, stable: 3, messages: 4 })
  })

  it("the noise floor is the share of messages that moved between repeats, over every session", () => {
    expect(noiseFloor([{ stable: 3, messages: 4 }, { stable: 6, messages: 6 }])).toEqual(0.09999999999999998)
    expect(noiseFloor([])).toEqual(0)
  })
})

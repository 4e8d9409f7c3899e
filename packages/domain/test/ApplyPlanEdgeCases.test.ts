import { describe, expect, it } from "@effect/vitest"
import { applyPlan } from "../src/ApplyPlan/ApplyPlan.js"
import { assembleNote } from "../src/ApplyPlan/Assembly.js"
import { MessageId } from "../src/Ids.js"
import type { MessageText } from "../src/Message.js"
import type { Plan, PlanNote } from "../src/Plan.js"

const msg = (seq: number, text: string): MessageText => ({ id: MessageId.make(`m${seq}`), seq, text })
const note = (sourceItemSeqs: Array<number>, directives: Array<string> = []): PlanNote => ({ sourceItemSeqs, directives })
const plan = (over: Partial<Plan>): Plan => ({ people: [], unattached: [], unclear: [], botMessages: [], ...over })

describe("applyPlan edge cases", () => {
  it("a quote spanning two messages removes nothing from either", () => {
    const messages = [msg(1, "Call Alice."), msg(2, "remind me Friday")]
    const decisions = applyPlan(messages, plan({ unattached: [note([1, 2], ["Alice.\n\nremind me"])] }))
    expect(decisions.notes.map((n) => n.body)).toEqual(["Call Alice.\n\nremind me Friday"])
    expect(decisions.warnings).toEqual([{
      code: "directive-not-found",
      seqs: [1, 2],
      message: "The quoted instruction \"Alice.\n\nremind me\" did not match messages 1, 2 exactly, so the messages were kept whole."
    }])
  })

  it("a quote found in two messages of a note is cut from the first of them only", () => {
    const messages = [msg(1, "remind me: Alice"), msg(2, "remind me: Bob")]
    const decisions = applyPlan(messages, plan({ unattached: [note([2, 1], ["remind me: "])] }))
    expect(decisions.notes.map(({ body, directives }) => ({ body, directives }))).toEqual([
      { body: "Alice\n\nremind me: Bob", directives: [{ messageId: "m1", seq: 1, text: "remind me: " }] }
    ])
  })

  it("claimants that attribute one quote to different messages agree only where they both point", () => {
    const messages = [msg(1, "remind me: Alice"), msg(2, "remind me: Bob")]
    const decisions = applyPlan(messages, plan({ unattached: [note([1, 2], ["remind me: "]), note([2], ["remind me: "])] }))
    expect(decisions.notes.map((n) => n.body)).toEqual(["Alice\n\nremind me: Bob"])
    expect(decisions.warnings).toEqual([{
      code: "directive-disputed",
      seqs: [2],
      message: "Only some notes quoted \"remind me: \" as an instruction in message 2, so it was kept in the note."
    }])
  })

  it("a lone surrogate quote skips the half of a pair and cuts the lone one", () => {
    const text = "👨‍👩‍👧 family \ud83d"
    const decisions = applyPlan([msg(1, text)], plan({ unattached: [note([1], ["\ud83d"])] }))
    expect(decisions.notes.map(({ body, segments }) => ({ body, segments }))).toEqual([
      { body: "👨‍👩‍👧 family", segments: [{ _tag: "Slice", messageId: "m1", start: 0, end: 15 }] }
    ])
  })

  it("never throws on seqs no JSON could carry", () => {
    const decisions = applyPlan([msg(1, "hi")], plan({ unattached: [note([1, Number.NaN, Infinity, -Infinity])] }))
    expect(decisions.warnings).toEqual([{
      code: "unknown-seq",
      seqs: [-Infinity, Infinity, Number.NaN],
      message: "The plan referred to messages -Infinity, Infinity, NaN, which this session does not have; ignored."
    }])
  })

  it("names a contact by the smallest trimmed name the plan gave it, whatever the order", () => {
    const people = [
      { contactId: "c1", name: " Sam ", notes: [note([1])] },
      { contactId: "c1", name: "Samuel", notes: [note([2])] }
    ]
    for (const ordered of [people, [...people].reverse()]) {
      const decisions = applyPlan([msg(1, "a"), msg(2, "b")], plan({ people: ordered }))
      expect(decisions.notes.map((n) => n.owner)).toEqual([
        { _tag: "Person", contactId: "c1", name: "Sam" },
        { _tag: "Person", contactId: "c1", name: "Sam" }
      ])
    }
  })
})

describe("assembleNote for the projection", () => {
  it("keeps a message whole when a recorded directive no longer matches after an edit", () => {
    const note = assembleNote([msg(1, "Remind me: Alice moved.")], [{ messageId: MessageId.make("m1"), text: "remind me:" }])
    expect({ body: note.body, cuts: note.cuts, warnings: note.warnings }).toEqual({
      body: "Remind me: Alice moved.",
      cuts: [],
      warnings: [{
        code: "directive-not-found",
        seqs: [1],
        message: "The quoted instruction \"remind me:\" did not match message 1 exactly, so the message was kept whole."
      }]
    })
  })
})

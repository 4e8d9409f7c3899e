import { describe, expect, it } from "@effect/vitest"
import { duplicatePlanSeqs } from "../src/ApplyPlan/Accounting.js"
import { applyPlan } from "../src/ApplyPlan/ApplyPlan.js"
import { MessageId } from "../src/Ids.js"
import type { MessageText } from "../src/Message.js"
import type { Plan, PlanNote } from "../src/Plan.js"

const msg = (seq: number, text: string): MessageText => ({ id: MessageId.make(`m${seq}`), seq, text })
const note = (sourceItemSeqs: Array<number>, directives: Array<string> = []): PlanNote => ({ sourceItemSeqs, directives })
const plan = (over: Partial<Plan>): Plan => ({ people: [], unattached: [], unclear: [], botMessages: [], ...over })
const messages = [msg(1, "Alice got the job."), msg(2, "Bob is moving."), msg(3, "/start"), msg(4, "Who was at lunch?")]

describe("duplicatePlanSeqs", () => {
  it("counts claimants, not distinct seqs: one note listing a seq twice is one claimant", () => {
    const duplicated = plan({
      people: [{ contactId: null, name: "Alice", notes: [note([1, 1]), note([1, 2])] }],
      unclear: [{ sourceItemSeqs: [2], candidates: [] }],
      botMessages: [3, 3]
    })
    expect(duplicatePlanSeqs(duplicated)).toEqual([1, 2])
  })
})

describe("applyPlan accounting", () => {
  it("ignores unknown seqs (zero, negative, fractional, out of range) with one warning", () => {
    const decisions = applyPlan(messages, plan({ unattached: [note([1, 2, 3, 4, 0, -1, 1.5, 9])] }))
    expect(decisions.notes.map((n) => n.seqs)).toEqual([[1, 2, 3, 4]])
    expect(decisions.warnings).toEqual([{
      code: "unknown-seq",
      seqs: [-1, 0, 1.5, 9],
      message: "The plan referred to messages -1, 0, 1.5, 9, which this session does not have; ignored."
    }])
  })

  it("parks every unmentioned seq in one unplanned question", () => {
    const decisions = applyPlan(messages, plan({ unattached: [note([2])] }))
    expect(decisions.questions).toEqual([{ reason: "unplanned", seqs: [1, 3, 4], messageIds: ["m1", "m3", "m4"], candidates: [] }])
    expect(decisions.warnings).toEqual([{
      code: "unplanned",
      seqs: [1, 3, 4],
      message: "The plan did not place messages 1, 3, 4, so they wait for your answer."
    }])
  })

  it("records bot messages as instructions, keeps a note's claim over the bot's, and lets unclear keep its claim", () => {
    const decisions = applyPlan(messages, plan({
      unattached: [note([1, 2])],
      unclear: [{ sourceItemSeqs: [4], candidates: ["Carol"] }],
      botMessages: [2, 3, 4]
    }))
    expect(decisions.notes.map((n) => ({ seqs: n.seqs, body: n.body }))).toEqual([
      { seqs: [1, 2], body: "Alice got the job.\n\nBob is moving." }
    ])
    expect(decisions.instructions).toEqual([{ seq: 3, messageId: "m3", kind: "message", text: "/start" }])
    expect(decisions.questions).toEqual([{
      reason: "unclear",
      seqs: [4],
      messageIds: ["m4"],
      candidates: [{ _tag: "Person", contactId: null, name: "Carol" }]
    }])
    expect(decisions.warnings).toEqual([{
      code: "bot-message-kept-as-note",
      seqs: [2],
      message: "Message 2 was planned both as a note and as addressed to the bot, so it was kept in the note."
    }])
  })

  it("groups contested seqs by their set of claimants and drops notes left empty", () => {
    const decisions = applyPlan(messages, plan({
      people: [{ contactId: "c1", name: "Alice", notes: [note([1]), note([2, 3])] }],
      unattached: [note([1, 2]), note([4])],
      unclear: [{ sourceItemSeqs: [4], candidates: ["alice", " Bob "] }]
    }))
    expect(decisions.notes.map((n) => ({ owner: n.owner, seqs: n.seqs }))).toEqual([
      { owner: { _tag: "Person", contactId: "c1", name: "Alice" }, seqs: [3] }
    ])
    expect(decisions.questions).toEqual([
      {
        reason: "contested",
        seqs: [1, 2],
        messageIds: ["m1", "m2"],
        candidates: [{ _tag: "Person", contactId: "c1", name: "Alice" }, { _tag: "Unattached" }]
      },
      {
        reason: "contested",
        seqs: [4],
        messageIds: ["m4"],
        candidates: [
          { _tag: "Person", contactId: null, name: "Bob" },
          { _tag: "Person", contactId: null, name: "alice" },
          { _tag: "Unattached" }
        ]
      }
    ])
  })

  it("treats people named alike (trimmed, any case) as one owner whose notes merge", () => {
    const decisions = applyPlan(messages, plan({
      people: [
        { contactId: null, name: " alice ", notes: [note([1, 2])] },
        { contactId: null, name: "Alice", notes: [note([2])] }
      ]
    }))
    expect(decisions.notes.map(({ owner, seqs, mergedFrom }) => ({ owner, seqs, mergedFrom }))).toEqual([
      { owner: { _tag: "Person", contactId: null, name: "Alice" }, seqs: [1, 2], mergedFrom: 2 }
    ])
  })

  it("warns when a quoted instruction matches none of its note's messages", () => {
    const decisions = applyPlan(messages, plan({ unattached: [note([1, 2, 3, 4], ["remind me"])] }))
    expect(decisions.warnings).toEqual([{
      code: "directive-not-found",
      seqs: [1, 2, 3, 4],
      message: "The quoted instruction \"remind me\" did not match messages 1, 2, 3, 4 exactly, so the messages were kept whole."
    }])
  })
})

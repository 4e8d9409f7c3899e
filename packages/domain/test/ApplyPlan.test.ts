import { describe, expect, it } from "@effect/vitest"
import { applyPlan } from "../src/ApplyPlan/ApplyPlan.js"
import type { Candidate } from "../src/Decision.js"
import { MessageId } from "../src/Ids.js"
import type { MessageText } from "../src/Message.js"
import type { Plan, PlanNote } from "../src/Plan.js"

const msg = (seq: number, text: string): MessageText => ({ id: MessageId.make(`m${seq}`), seq, text })
const note = (sourceItemSeqs: Array<number>, directives: Array<string> = []): PlanNote => ({ sourceItemSeqs, directives })
const plan = (over: Partial<Plan>): Plan => ({ people: [], unattached: [], unclear: [], botMessages: [], ...over })
const alice = (notes: Array<PlanNote>) => ({ contactId: "c-alice", name: "Alice", notes })
const aliceOwner = { _tag: "Person", contactId: "c-alice", name: "Alice" } as const

const permutations = <A>(items: ReadonlyArray<A>): Array<Array<A>> =>
  items.length <= 1
    ? [[...items]]
    : items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]))

describe("applyPlan: seed incidents", () => {
  it("1. a long message of own thinking naming a person twice keeps the whole message as the note body", () => {
    const text = [
      "Been thinking about the garden again. The north bed gets no sun after two.",
      "Maybe move the tomatoes, maybe not. I keep changing my mind.",
      "Alice said she has spare stakes.",
      "Anyway the compost needs turning and the shed door sticks in the rain.",
      "Ask Alice whether she still wants the rhubarb crowns.",
      "Need to sort the seed tin before spring, half of it is past its date."
    ].join("\n")
    const decisions = applyPlan([msg(1, text)], plan({ people: [alice([note([1])])] }))
    expect(decisions.notes).toEqual([
      {
        owner: aliceOwner,
        seqs: [1],
        messageIds: ["m1"],
        directives: [],
        body: text,
        segments: [{ _tag: "Slice", messageId: "m1", start: 0, end: text.length }],
        mergedFrom: 1
      }
    ])
    expect(decisions.questions).toEqual([])
    expect(decisions.instructions).toEqual([])
    expect(decisions.warnings).toEqual([])
  })

  it("2. two notes on one person over one message, one quoting the closing line, keep the closing line in either order", () => {
    const text = "Alice starts the new job on Monday.\nShe is nervous about the commute.\nRemind me to call her Sunday."
    const quoting = note([1], ["Remind me to call her Sunday."])
    for (const notes of permutations([note([1]), quoting])) {
      const decisions = applyPlan([msg(1, text)], plan({ people: [alice(notes)] }))
      expect(decisions.notes.map(({ body, directives, mergedFrom }) => ({ body, directives, mergedFrom }))).toEqual([
        { body: text, directives: [], mergedFrom: 2 }
      ])
      expect(decisions.instructions).toEqual([])
      expect(decisions.warnings).toEqual([
        {
          code: "directive-disputed",
          seqs: [1],
          message: "Only some notes quoted \"Remind me to call her Sunday.\" as an instruction in message 1, so it was kept in the note."
        }
      ])
    }
  })

  it("3. a message claimed by a person and by unclear becomes exactly one contested question and no note", () => {
    const decisions = applyPlan(
      [msg(1, "Lunch with Sam next week?")],
      plan({ people: [alice([note([1])])], unclear: [{ sourceItemSeqs: [1], candidates: ["Sam", "Samantha"] }] })
    )
    const candidates: Array<Candidate> = [
      aliceOwner,
      { _tag: "Person", contactId: null, name: "Sam" },
      { _tag: "Person", contactId: null, name: "Samantha" }
    ]
    expect(decisions.notes).toEqual([])
    expect(decisions.questions).toEqual([{ reason: "contested", seqs: [1], messageIds: ["m1"], candidates }])
    expect(decisions.warnings).toEqual([
      { code: "contested", seqs: [1], message: "The plan gave message 1 to more than one owner, so it waits for your answer." }
    ])
  })
})

describe("applyPlan: merging within one owner", () => {
  const messages = [msg(1, "Bob moved to Leeds. Remind me to send a card."), msg(2, "He likes jazz."), msg(3, "Bob's sister is Ann.")]

  it("keeps a line one note wanted cut because another note called it content", () => {
    const decisions = applyPlan(messages, plan({ unattached: [note([1, 2], ["Remind me to send a card."]), note([1])] }))
    expect(decisions.notes.map((n) => n.body)).toEqual(["Bob moved to Leeds. Remind me to send a card.\n\nHe likes jazz."])
    expect(decisions.warnings.map((w) => w.code)).toEqual(["directive-disputed", "unplanned"])
  })

  it("still cuts what every claimant quoted", () => {
    const directive = "Remind me to send a card."
    const decisions = applyPlan(messages, plan({ unattached: [note([1, 2], [directive]), note([1], [directive]), note([3])] }))
    expect(decisions.notes.map(({ body, directives, seqs }) => ({ body, directives, seqs }))).toEqual([
      { body: "Bob moved to Leeds.\n\nHe likes jazz.", directives: [{ messageId: "m1", seq: 1, text: directive }], seqs: [1, 2] },
      { body: "Bob's sister is Ann.", directives: [], seqs: [3] }
    ])
    expect(decisions.instructions).toEqual([{ seq: 1, messageId: "m1", kind: "directive", text: directive }])
    expect(decisions.warnings).toEqual([])
  })

  it("collapses a chain that only overlaps pairwise, in any order", () => {
    for (const notes of permutations([note([1]), note([3]), note([1, 3])])) {
      const decisions = applyPlan(messages, plan({ people: [alice(notes)] }))
      expect(decisions.notes).toEqual([
        {
          owner: aliceOwner,
          seqs: [1, 3],
          messageIds: ["m1", "m3"],
          directives: [],
          body: "Bob moved to Leeds. Remind me to send a card.\n\nBob's sister is Ann.",
          segments: [
            { _tag: "Slice", messageId: "m1", start: 0, end: 45 },
            { _tag: "Separator", text: "\n\n" },
            { _tag: "Slice", messageId: "m3", start: 0, end: 20 }
          ],
          mergedFrom: 3
        }
      ])
      expect(decisions.questions).toEqual([{ reason: "unplanned", seqs: [2], messageIds: ["m2"], candidates: [] }])
    }
  })
})

import { describe, expect, it } from "@effect/vitest"
import { sessionWithPlan } from "@verbatim/testkit/Arbitraries"
import { propertyRuns } from "@verbatim/testkit/Runs"
import fc from "fast-check"
import { applyPlan, type Decisions } from "../src/ApplyPlan/ApplyPlan.js"
import { assembleNote } from "../src/ApplyPlan/Assembly.js"
import { MessageId } from "../src/Ids.js"
import type { MessageText } from "../src/Message.js"
import type { Plan, PlanNote } from "../src/Plan.js"

const runs = { numRuns: propertyRuns(1_000) }

/** Order-preserving relabellings of seqs: sparse, negative, fractional, far apart. Each is strictly increasing. */
const relabellings: ReadonlyArray<readonly [string, (seq: number) => number]> = [
  ["sparse", (seq) => seq * 1_000],
  ["negative and sparse", (seq) => seq * 1_000 - 4_500],
  ["fractional", (seq) => seq / 2 - 3],
  ["far apart", (seq) => seq * 1e12]
]

const relabelPlan = (plan: Plan, f: (seq: number) => number): Plan => {
  const note = (entry: PlanNote): PlanNote => ({ ...entry, sourceItemSeqs: entry.sourceItemSeqs.map(f) })
  return {
    people: plan.people.map((person) => ({ ...person, notes: person.notes.map(note) })),
    unattached: plan.unattached.map(note),
    unclear: plan.unclear.map((entry) => ({ ...entry, sourceItemSeqs: entry.sourceItemSeqs.map(f) })),
    botMessages: plan.botMessages.map(f)
  }
}

/** Decisions with every seq relabelled; warnings keep code and seqs (their text quotes the seqs). */
const relabelDecisions = (decisions: Decisions, f: (seq: number) => number) => ({
  notes: decisions.notes.map((note) => ({
    ...note,
    seqs: note.seqs.map(f),
    directives: note.directives.map((cut) => ({ ...cut, seq: f(cut.seq) }))
  })),
  questions: decisions.questions.map((question) => ({ ...question, seqs: question.seqs.map(f) })),
  instructions: decisions.instructions.map((instruction) => ({ ...instruction, seq: f(instruction.seq) })),
  warnings: decisions.warnings.map(({ code, seqs }) => ({ code, seqs: seqs.map(f) }))
})

const withoutWarningText = (decisions: Decisions) => ({
  ...decisions,
  warnings: decisions.warnings.map(({ code, seqs }) => ({ code, seqs }))
})

/** Every place a seq can end up. */
const dispositions = (decisions: Decisions): Array<number> => [
  ...decisions.notes.flatMap((note) => note.seqs),
  ...decisions.questions.flatMap((question) => question.seqs),
  ...decisions.instructions.filter((instruction) => instruction.kind === "message").map((instruction) => instruction.seq)
]

/** A session whose messages share ids (`m1` for every third one) and repeat seqs, in shuffled input order. */
const crowded = sessionWithPlan().chain(({ messages, plan }) =>
  fc.tuple(
    fc.array(fc.tuple(fc.nat(), fc.string({ maxLength: 4 })), { maxLength: 2 }),
    fc.integer({ min: 1, max: 3 })
  ).chain(([repeats, every]) => {
    const shared = messages.map((message, i): MessageText => ({ ...message, id: MessageId.make(`m${(i % every) + 1}`) }))
    const repeated = messages.length === 0 ? [] : repeats.map(([i, text]): MessageText => ({
      id: MessageId.make(`r${i}`),
      seq: messages[i % messages.length]!.seq,
      text
    }))
    return fc.shuffledSubarray([...shared, ...repeated], { minLength: shared.length + repeated.length })
      .map((input) => ({ input, plan }))
  })
)

describe("applyPlan on any seqs and ids", () => {
  for (const [name, f] of relabellings) {
    it(`relabelling seqs (${name}) relabels the decisions and changes nothing else`, () => {
      fc.assert(
        fc.property(sessionWithPlan(), ({ messages, plan }) => {
          const relabelled = messages.map((message) => ({ ...message, seq: f(message.seq) }))
          expect(withoutWarningText(applyPlan(relabelled, relabelPlan(plan, f)))).toEqual(
            relabelDecisions(applyPlan(messages, plan), f)
          )
        }),
        runs
      )
    })
  }

  it("shared ids and repeated seqs: each seq has one disposition, held by its first message, and bodies re-assemble", () => {
    fc.assert(
      fc.property(crowded, ({ input, plan }) => {
        const first = new Map<number, MessageText>()
        for (const message of input) if (!first.has(message.seq)) first.set(message.seq, message)
        const decisions = applyPlan(input, plan)
        expect(dispositions(decisions).sort((a, b) => a - b)).toEqual([...first.keys()].sort((a, b) => a - b))
        for (const note of decisions.notes) {
          const members = note.seqs.map((seq) => first.get(seq)!)
          expect(note.messageIds).toEqual(members.map((member) => member.id))
          const assembled = assembleNote(members, note.directives)
          expect({ body: assembled.body, segments: assembled.segments, warnings: assembled.warnings }).toEqual({
            body: note.body,
            segments: note.segments,
            warnings: []
          })
        }
      }),
      runs
    )
  })

  it("a quote agreed for a later message sharing an id is cut from the first message with that id", () => {
    const messages: Array<MessageText> = [
      { id: MessageId.make("m1"), seq: 10, text: "remind me: Alice" },
      { id: MessageId.make("m1"), seq: 20, text: "remind me: Bob" }
    ]
    const plan: Plan = { people: [], unattached: [{ sourceItemSeqs: [20, 10], directives: ["Bob"] }], unclear: [], botMessages: [] }
    expect(applyPlan(messages, plan)).toEqual({
      notes: [{
        owner: { _tag: "Unattached" },
        seqs: [10, 20],
        messageIds: ["m1", "m1"],
        directives: [],
        body: "remind me: Alice\n\nremind me: Bob",
        segments: [
          { _tag: "Slice", messageId: "m1", start: 0, end: 16 },
          { _tag: "Separator", text: "\n\n" },
          { _tag: "Slice", messageId: "m1", start: 0, end: 14 }
        ],
        mergedFrom: 1
      }],
      questions: [],
      instructions: [],
      warnings: [{
        code: "directive-not-found",
        seqs: [10],
        message: "The quoted instruction \"Bob\" did not match message 10 exactly, so the message was kept whole."
      }]
    })
  })
  it("a quote agreed for a later message sharing an id is not cut from the first when that message's claimants did not quote it", () => {
    const messages: Array<MessageText> = [
      { id: MessageId.make("m1"), seq: 1, text: "x a" },
      { id: MessageId.make("m1"), seq: 2, text: "x b" },
      { id: MessageId.make("m3"), seq: 3, text: "c" }
    ]
    const plan: Plan = {
      people: [],
      unattached: [{ sourceItemSeqs: [1, 3], directives: [] }, { sourceItemSeqs: [2, 3], directives: ["x"] }],
      unclear: [],
      botMessages: []
    }
    const decisions = applyPlan(messages, plan)
    expect({
      notes: decisions.notes.map(({ body, directives, seqs }) => ({ body, directives, seqs })),
      instructions: decisions.instructions,
      warnings: decisions.warnings.map(({ code, seqs }) => ({ code, seqs }))
    }).toEqual({
      notes: [{ body: "x a\n\nx b\n\nc", directives: [], seqs: [1, 2, 3] }],
      instructions: [],
      warnings: [{ code: "directive-disputed", seqs: [1] }]
    })
  })

  it("a fractional plan seq names no message, even where subtracting the lowest seq rounds it onto one", () => {
    const messages: Array<MessageText> = [
      { id: MessageId.make("m1"), seq: -1, text: "a" },
      { id: MessageId.make("m2"), seq: 0, text: "b" }
    ]
    const plan: Plan = { people: [], unattached: [{ sourceItemSeqs: [1e-17], directives: [] }], unclear: [], botMessages: [] }
    const decisions = applyPlan(messages, plan)
    expect({
      notes: decisions.notes,
      questions: decisions.questions.map(({ reason, seqs }) => ({ reason, seqs })),
      warnings: decisions.warnings.map(({ code, seqs }) => ({ code, seqs }))
    }).toEqual({
      notes: [],
      questions: [{ reason: "unplanned", seqs: [-1, 0] }],
      warnings: [{ code: "unknown-seq", seqs: [1e-17] }, { code: "unplanned", seqs: [-1, 0] }]
    })
  })
})

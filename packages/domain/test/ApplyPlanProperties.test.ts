import { describe, expect, it } from "@effect/vitest"
import { noteDirectives, session, sessionWithPlan, shuffledPlan } from "@verbatim/testkit/Arbitraries"
import { propertyRuns } from "@verbatim/testkit/Runs"
import fc from "fast-check"
import { applyPlan, type Decisions } from "../src/ApplyPlan/ApplyPlan.js"
import { assembleNote, messageTiling } from "../src/ApplyPlan/Assembly.js"
import type { MessageText } from "../src/Message.js"
import type { Plan } from "../src/Plan.js"
import { expectTiled, textOfSegments } from "./Tiling.js"

const runs = { numRuns: propertyRuns(1_000) }

const noteMessages = (messages: ReadonlyArray<MessageText>, seqs: ReadonlyArray<number>) =>
  seqs.map((seq) => messages.find((message) => message.seq === seq)!)

/** Every seq lands in exactly one place: a note, a question or a whole-message instruction. */
const dispositions = (decisions: Decisions): Array<number> => [
  ...decisions.notes.flatMap((note) => note.seqs),
  ...decisions.questions.flatMap((question) => question.seqs),
  ...decisions.instructions.filter((instruction) => instruction.kind === "message").map((instruction) => instruction.seq)
]

const claimingNotes = (plan: Plan, seq: number) => [
  ...plan.people.flatMap((person) => person.notes),
  ...plan.unattached
].filter((note) => note.sourceItemSeqs.includes(seq))

describe("applyPlan properties", () => {
  it("conservation: every seq of the session has exactly one disposition", () => {
    fc.assert(
      fc.property(sessionWithPlan(), ({ messages, plan }) => {
        const decisions = applyPlan(messages, plan)
        expect(dispositions(decisions).sort((a, b) => a - b)).toEqual(messages.map((message) => message.seq))
      }),
      runs
    )
  })

  it("provenance: slices, cuts and dropped whitespace tile every message of every note", () => {
    fc.assert(
      fc.property(sessionWithPlan(), ({ messages, plan }) => {
        for (const note of applyPlan(messages, plan).notes) {
          const members = noteMessages(messages, note.seqs)
          const assembled = assembleNote(members, note.directives)
          expect({ body: assembled.body, segments: assembled.segments, warnings: assembled.warnings }).toEqual({
            body: note.body,
            segments: note.segments,
            warnings: []
          })
          for (const message of members) expectTiled(message, messageTiling(assembled, message.id), assembled.cuts)
        }
      }),
      runs
    )
  })

  it("bodies equal the concatenation of their segments", () => {
    fc.assert(
      fc.property(sessionWithPlan(), ({ messages, plan }) => {
        for (const note of applyPlan(messages, plan).notes) expect(textOfSegments(messages, note.segments)).toBe(note.body)
      }),
      runs
    )
  })

  it("plan order never matters: shuffling people, notes, seqs and directives gives identical decisions", () => {
    const shuffled = sessionWithPlan().chain(({ messages, plan }) =>
      shuffledPlan(plan).map((reordered) => ({ messages, plan, reordered }))
    )
    fc.assert(
      fc.property(shuffled, ({ messages, plan, reordered }) => {
        expect(applyPlan(messages, reordered)).toEqual(applyPlan(messages, plan))
      }),
      runs
    )
  })

  it("no note without seqs, and note seqs are unique and ascending", () => {
    fc.assert(
      fc.property(sessionWithPlan(), ({ messages, plan }) => {
        for (const note of applyPlan(messages, plan).notes) {
          expect(note.seqs.length).toBeGreaterThan(0)
          expect(note.seqs).toEqual([...new Set(note.seqs)].sort((a, b) => a - b))
        }
      }),
      runs
    )
  })

  it("no cut unless every plan note claiming the message quoted it", () => {
    fc.assert(
      fc.property(sessionWithPlan(), ({ messages, plan }) => {
        const decisions = applyPlan(messages, plan)
        for (const cut of decisions.notes.flatMap((note) => note.directives)) {
          const claimants = claimingNotes(plan, cut.seq)
          expect(claimants.length).toBeGreaterThan(0)
          for (const claimant of claimants) expect(claimant.directives).toContain(cut.text)
        }
        expect(decisions.instructions.filter((instruction) => instruction.kind === "directive")).toEqual(
          decisions.notes.flatMap((note) => note.directives).map(({ messageId, seq, text }) => ({ seq, messageId, kind: "directive", text }))
            .sort((a, b) => a.seq - b.seq)
        )
      }),
      runs
    )
  })
})

describe("assembleNote properties", () => {
  it("tiles every message whatever the directives: found, missing, overlapping, repeated, empty or foreign", () => {
    const input = session({ maxMessages: 4 }).chain((messages) =>
      noteDirectives(messages).map((directives) => ({ messages, directives }))
    )
    fc.assert(
      fc.property(input, ({ directives, messages }) => {
        const assembled = assembleNote(messages, directives)
        expect(textOfSegments(messages, assembled.segments)).toBe(assembled.body)
        for (const message of messages) expectTiled(message, messageTiling(assembled, message.id), assembled.cuts)
        for (const cut of assembled.cuts) {
          expect(directives).toContainEqual({ messageId: cut.messageId, text: cut.text })
        }
      }),
      runs
    )
  })
})

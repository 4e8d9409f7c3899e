/** The session's state as folded from its stream: what every decision reads. */
import { describe, expect, it } from "@effect/vitest"
import { propertyRuns } from "@verbatim/testkit/Runs"
import fc from "fast-check"
import type { Event } from "../../src/Events.js"
import { NoteId } from "../../src/Ids.js"
import { empty, fold, isFiled, nextSeq, plannable } from "../../src/Session/State.js"
import {
  noteRecorded,
  planApplied,
  planFailed,
  planProduced,
  questionAnswered,
  questionParked,
  questionWithdrawn,
  replyQueued
} from "./Decided.js"
import {
  closed,
  edited,
  message,
  messageId,
  opened,
  person,
  planId,
  questionId,
  received,
  sessionId,
  sources,
  unattached,
  user
} from "./fixtures.js"

const emptyPlan = { people: [], unattached: [], unclear: [], botMessages: [] }

describe("the session state", () => {
  it("keeps the messages in seq order, each with its latest text and the time of its newest edit", () => {
    const history = [opened(), received(2, "two"), received(1, "one"), edited(1, "one, edited", 50), edited(1, "one, edited again", 70), closed(2)]
    expect(fold(history)).toEqual({
      ...empty,
      sessionId,
      user,
      provider: "telegram",
      chat: "100000001",
      messages: [{ ...message(1, "one, edited again") }, message(2, "two")],
      editedAt: new Map([[messageId(1), "2026-01-01T00:01:10.000Z"]]),
      closed: true,
      closedAt: Date.UTC(2026, 0, 1) + 600_000,
      revision: 4
    })
  })

  it("counts every event in its revision but edits", () => {
    expect(fold([opened(), received(1, "one"), edited(1, "uno", 20), edited(1, "eins", 30), closed(1), planFailed("timeout", 1, "timed out")]).revision)
      .toBe(4)
  })

  it("takes the next seq after the last message's, and 1 in an empty session", () => {
    expect(nextSeq(empty)).toBe(1)
    expect(nextSeq(fold([opened(), received(1, "one"), received(2, "two")]))).toBe(3)
  })

  it("retires the notes and questions of the plans a superseding plan replaces; an answer's note stays filed", () => {
    const history: Array<Event> = [
      opened(),
      received(1, "one"),
      received(2, "two"),
      received(3, "three"),
      closed(3),
      planProduced("plan_1", emptyPlan, 1, 3),
      noteRecorded("note_1", unattached, null, [1]),
      questionParked("q_1", "plan_1", "unclear", [2], [person("Ana")]),
      questionParked("q_2", "plan_1", "unplanned", [3]),
      planApplied("plan_1", ["note_1"], ["q_1", "q_2"]),
      questionAnswered("q_1", person("Ana")),
      noteRecorded("note_2", person("Ana"), "person_1", [2], { plan: null, question: "q_1" })
    ]
    const before = fold(history)
    expect([...before.filed]).toEqual([[planId("plan_1"), new Set([messageId(1)])], [null, new Set([messageId(2)])]])
    const after = fold([planProduced("plan_2", emptyPlan, 1, 3, ["plan_1"])], before)
    expect(after).toEqual({
      ...before,
      appliedPlans: [],
      questions: new Map(),
      filed: new Map([[null, new Set([messageId(2)])]]),
      notes: new Map([[NoteId.make("note_2"), {
        noteId: "note_2",
        user,
        planId: null,
        personId: "person_1",
        owner: person("Ana"),
        sources: sources(2),
        discarded: false,
        moved: false,
        cut: null
      }]]),
      answeredSeqs: [2],
      revision: before.revision + 1
    })
    expect([isFiled(after, messageId(1)), isFiled(after, messageId(2))]).toEqual([false, true])
  })

  it("tracks a question from parked to answered or withdrawn, and the open failed ones", () => {
    const parked = fold([
      ...[opened(), received(1, "one"), received(2, "two"), closed(2)],
      planFailed("overloaded", 1, "overloaded"),
      questionParked("q_1", null, "failed", [1, 2]),
      replyQueued("reply_1", "kept safe")
    ])
    expect([...parked.questions]).toEqual([
      [questionId("q_1"), { questionId: questionId("q_1"), planId: null, user, reason: "failed", status: "open", candidates: [], sources: sources(1, 2), sessionId, _tag: "QuestionParked" }]
    ])
    expect([parked.openFailedQuestions, parked.failures]).toEqual([[questionId("q_1")], 1])
    const withdrawn = fold([questionWithdrawn("q_1")], parked)
    expect([withdrawn.questions.get(questionId("q_1"))?.status, withdrawn.openFailedQuestions]).toEqual(["withdrawn", []])
    const answered = fold([questionAnswered("q_1", unattached)], parked)
    expect([answered.questions.get(questionId("q_1"))?.status, answered.openFailedQuestions]).toEqual(["answered", []])
  })

  it("leaves out of what a plan may file the messages an answer filed", () => {
    const state = fold([
      opened(),
      received(1, "one"),
      received(2, "two"),
      received(3, "three"),
      closed(3),
      questionParked("q_1", null, "failed", [1, 2, 3]),
      questionAnswered("q_1", unattached),
      noteRecorded("note_1", unattached, null, [2], { plan: null, question: "q_1" })
    ])
    expect(plannable(state)).toEqual([message(1, "one"), message(3, "three")])
    expect(plannable(fold([opened(), received(1, "one")]))).toEqual([message(1, "one")])
  })
})

const seq = fc.integer({ min: 1, max: 4 })
const plans = fc.constantFrom("plan_1", "plan_2", "plan_3")
const questions = fc.constantFrom("q_1", "q_2", "q_3")
const seqs = fc.uniqueArray(seq, { minLength: 1, maxLength: 3 })

/** Any event a session stream holds, over a few seqs, plans and questions so that they meet. */
const event: fc.Arbitrary<Event> = fc.oneof(
  fc.constant(opened()),
  fc.tuple(seq, fc.string({ maxLength: 5 })).map(([s, text]) => received(s, text)),
  fc.tuple(seq, fc.string({ maxLength: 5 }), fc.nat(1000)).map(([s, text, at]) => edited(s, text, at)),
  fc.nat(4).map((n) => closed(n)),
  fc.tuple(plans, fc.subarray(["plan_1", "plan_2", "plan_3"])).map(([id, replaced]) => planProduced(id, emptyPlan, 1, 4, replaced)),
  plans.map((id) => planApplied(id, [])),
  fc.constant(planFailed("server", 1, "server")),
  fc.tuple(plans, seqs).map(([id, s]) => noteRecorded("note", unattached, null, s, { plan: id })),
  fc.tuple(questions, seqs).map(([id, s]) => noteRecorded("note", person("Ana"), "person_1", s, { plan: null, question: id })),
  fc.tuple(questions, fc.option(plans, { nil: null }), fc.constantFrom("unclear", "failed" as const), seqs)
    .map(([id, plan, reason, s]) => questionParked(id, plan, reason, s)),
  questions.map((id) => questionAnswered(id, unattached)),
  questions.map(questionWithdrawn),
  fc.constant(replyQueued("reply", "text"))
)

describe("the session state, as a property", () => {
  it("is the same folded in one call as folded from any split point", () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 25 }), fc.nat(), (events, at) => {
        const split = at % (events.length + 1)
        expect(fold(events.slice(split), fold(events.slice(0, split)))).toEqual(fold(events))
      }),
      { numRuns: propertyRuns(500) }
    )
  })
})

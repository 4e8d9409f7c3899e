/** A failed plan: recorded, and the owed messages parked once so that none is lost. */
import { describe, it } from "@effect/vitest"
import { rejected } from "../../src/Session/Commands.js"
import {
  failedReply,
  noteRecorded,
  planApplied,
  planFailed,
  planProduced,
  questionAnswered,
  questionParked,
  replyQueued
} from "./Decided.js"
import { closedSession, failPlan, plan, spec, unattached } from "./fixtures.js"

const failedOnce = [
  ...closedSession("one", "two"),
  planFailed("overloaded", 1, "529 overloaded"),
  questionParked("q_1", null, "failed", [1, 2]),
  replyQueued("reply_1", failedReply)
]

describe("FailPlan", () => {
  it("records the first failure and parks every owed message in one question, told to the sender", () => {
    spec.given(closedSession("one", "two")).when(failPlan("overloaded", "529 overloaded", 4)).then([
      planFailed("overloaded", 1, "529 overloaded"),
      questionParked("q_1", null, "failed", [1, 2]),
      replyQueued("reply_1", failedReply)
    ])
  })

  it("records a second failure alone, as attempt 2: the messages are parked already", () => {
    spec.given(failedOnce).when(failPlan("timeout", "timed out after 60s", 7)).then([planFailed("timeout", 2, "timed out after 60s")])
  })

  it("parks only the messages an answer did not file", () => {
    spec.given([...failedOnce, questionAnswered("q_1", unattached), noteRecorded("note_1", unattached, null, [1, 2], { plan: null, question: "q_1" })])
      .when(failPlan("server", "500", 9))
      .then([planFailed("server", 2, "500")])
    spec.given([
      ...closedSession("one", "two", "three"),
      questionParked("q_x", null, "failed", [2]),
      questionAnswered("q_x", unattached),
      noteRecorded("note_1", unattached, null, [2], { plan: null, question: "q_x" })
    ]).when(failPlan("server", "500", 8)).then([
      planFailed("server", 1, "500"),
      questionParked("q_1", null, "failed", [1, 3]),
      replyQueued("reply_1", failedReply)
    ])
  })

  it("decides nothing when a re-plan of a planned session fails: the live plans stay in force", () => {
    const mine = plan({ unattached: [{ sourceItemSeqs: [1], directives: [] }] })
    spec.given([...closedSession("one"), planProduced("plan_1", mine, 1, 1), noteRecorded("note_1", unattached, null, [1]), planApplied("plan_1", ["note_1"])])
      .when(failPlan("rate-limited", "429", 6, true))
      .then([])
  })

  it("records the failure's detail made storable", () => {
    spec.given(failedOnce).when(failPlan("decode", "bad byte \u0000 in \uD800 input", 7)).then([
      planFailed("decode", 2, "bad byte  in \uFFFD input")
    ])
  })

  it("refuses a failure of a session still open, or decided before something else happened", () => {
    spec.given(closedSession("one").slice(0, 2)).when(failPlan("server", "500", 2)).thenRejects(rejected("not-closed", "not-closed"))
    spec.given(failedOnce).when(failPlan("server", "500", 4)).thenRejects(rejected("stale", "stale"))
  })
})

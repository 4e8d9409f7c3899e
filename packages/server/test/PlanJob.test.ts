import { describe, expect, it } from "@effect/vitest"
import { NoteId } from "@verbatim/domain/Ids"
import { note } from "@verbatim/projections/Queries/Lists"
import { FakeAnthropic } from "@verbatim/testkit"
import { Effect, Option } from "effect"
import { PlanJob } from "../src/Planning/PlanJob.js"
import { PlanningHold, reasonOf } from "../src/Planning/PlanningHold.js"
import { closedSession, dispositions, eventsAfterClose, inPlanJob, text } from "./planJobHarness.js"
import {
  cut,
  directiveRecorded,
  failedTold,
  noteRecorded,
  parkedAsFailed,
  personAdded,
  planApplied,
  planFailed,
  planProduced,
  questionWithdrawn,
  replyQueued,
  source,
  toPerson,
  unattached
} from "./planJobEvents.js"

const { FakeReply } = FakeAnthropic

const messages = [
  text(1, "Alice said she is moving to Lisbon in March."),
  text(2, "She wants a quiet flat near the river. remind me on Friday"),
  text(3, "I should learn some Portuguese myself.")
]

const plan = {
  people: [{ contactId: null, name: "Alice", notes: [{ sourceItemSeqs: [1, 2], directives: ["remind me on Friday"] }] }],
  unattached: [{ sourceItemSeqs: [3], directives: [] }],
  unclear: [],
  botMessages: []
}

const script = (...replies: ReadonlyArray<FakeAnthropic.FakeReply>) =>
  Effect.flatMap(FakeAnthropic.FakeAnthropic, (fake) => fake.script(...replies))

const calls = Effect.flatMap(FakeAnthropic.FakeAnthropic, (fake) => Effect.map(fake.requests, (r) => r.length))

const run = (sessionId: Parameters<PlanJob["Type"]["run"]>[0]) => Effect.flatMap(PlanJob, (job) => job.run(sessionId))

/** What the plan above records, after `before` (a withdrawn question, say), its ids counted from 1. */
const planned = (tokens?: { readonly inputTokens: number; readonly outputTokens: number }, before: ReadonlyArray<unknown> = []) => [
  personAdded("person_1", "Alice"),
  ...before,
  planProduced("plan_1", plan, { fromSeq: 1, toSeq: 3 }, tokens),
  noteRecorded("note_1", "plan_1", toPerson("person_1", "Alice"), [source(1, 1), source(2, 2)], [cut(2, 2, "remind me on Friday")]),
  noteRecorded("note_2", "plan_1", unattached, [source(3, 3)]),
  directiveRecorded("plan_1", cut(2, 2, "remind me on Friday")),
  planApplied("plan_1", ["note_1", "note_2"])
]

/** What the user is told once the plan above is filed. */
const plannedTold = "Added 2 notes: Alice, your own notes.\nTaken as meant for me, so kept out of the notes: “remind me on Friday”."

/** The model fails with `reason` (and its `detail`) on its first attempt: every message parked, the user told. */
const parkedAsFirstFailure = (reason: Parameters<typeof planFailed>[0], detail: string) => [
  planFailed(reason, 1, detail),
  parkedAsFailed("q_1"),
  replyQueued("reply_1", failedTold)
]

/** The model answers only `replies`: one call each, then one failure with `reason`, every message parked, the user told. */
const parkedAfter = (replies: ReadonlyArray<FakeAnthropic.FakeReply>, reason: Parameters<typeof planFailed>[0], detail: string) =>
  inPlanJob(Effect.gen(function*() {
    const sessionId = yield* closedSession(...messages)
    yield* script(...replies)
    expect(yield* run(sessionId)).toBe("failed")
    expect(yield* calls).toBe(replies.length)
    expect(yield* eventsAfterClose(sessionId)).toEqual(parkedAsFirstFailure(reason, detail))
    expect(yield* dispositions(sessionId)).toEqual(["1: InQuestion", "2: InQuestion", "3: InQuestion"])
  }))

/** A fault the retry policy never repeats: one call. */
const permanentFault = (reply: FakeAnthropic.FakeReply, reason: Parameters<typeof planFailed>[0], detail: string) =>
  parkedAfter([reply], reason, detail)

/** The fake Messages API's error body for an HTTP status and error type. */
const apiError = (status: number, type: string) => `${status} {"type":"error","error":{"type":"${type}","message":"fake ${type}"}}`

describe("PlanJob", () => {
  it.live("records the plan, its notes, the cut directive and one reply; a second run appends nothing", () =>
    inPlanJob(Effect.gen(function*() {
      const sessionId = yield* closedSession(...messages)
      yield* script(FakeReply.toolUse(plan, { input_tokens: 900, output_tokens: 80 }))
      expect(yield* run(sessionId)).toBe("planned")
      const events = yield* eventsAfterClose(sessionId)
      expect(events).toEqual([
        ...planned({ inputTokens: 900, outputTokens: 80 }),
        replyQueued("reply_1", plannedTold)
      ])
      const alice = Option.getOrThrow(yield* note(NoteId.make("note_1")))
      expect(alice.body).toBe(
        "Alice said she is moving to Lisbon in March.\n\nShe wants a quiet flat near the river."
      )
      const own = Option.getOrThrow(yield* note(NoteId.make("note_2")))
      expect(own.body).toBe("I should learn some Portuguese myself.")
      expect(yield* dispositions(sessionId)).toEqual(["1: InNote", "2: InNote", "3: InNote"])

      expect(yield* run(sessionId)).toBe("already-planned")
      expect(yield* eventsAfterClose(sessionId)).toEqual(events)
      expect(yield* calls).toBe(1)
    })))

  it.live("honours a 429 with retry-after, then plans", () =>
    inPlanJob(Effect.gen(function*() {
      const sessionId = yield* closedSession(...messages)
      yield* script(FakeReply.rateLimited({ "retry-after-ms": "20" }), FakeReply.serverError(), FakeReply.toolUse(plan))
      expect(yield* run(sessionId)).toBe("planned")
      expect(yield* calls).toBe(3)
      expect(yield* dispositions(sessionId)).toEqual(["1: InNote", "2: InNote", "3: InNote"])
    })))

  it.live("a model overloaded past every retry parks the session once; a retry after recovery files it", () =>
    inPlanJob(Effect.gen(function*() {
      const sessionId = yield* closedSession(...messages)
      yield* script(FakeReply.overloaded(), FakeReply.overloaded(), FakeReply.overloaded())
      expect(yield* run(sessionId)).toBe("failed")
      expect(yield* calls).toBe(3)
      const failed = parkedAsFirstFailure("overloaded", apiError(529, "overloaded_error"))
      expect(yield* eventsAfterClose(sessionId)).toEqual(failed)
      expect(yield* dispositions(sessionId)).toEqual(["1: InQuestion", "2: InQuestion", "3: InQuestion"])

      yield* script(FakeReply.serverError(), FakeReply.serverError(), FakeReply.serverError())
      expect(yield* run(sessionId)).toBe("failed")
      const again = [...failed, planFailed("server", 2, apiError(500, "api_error"))]
      expect(yield* eventsAfterClose(sessionId)).toEqual(again)

      yield* script(FakeReply.toolUse(plan))
      expect(yield* run(sessionId)).toBe("planned")
      expect(yield* eventsAfterClose(sessionId)).toEqual([
        ...again,
        ...planned(undefined, [questionWithdrawn("q_1")]),
        replyQueued("reply_2", plannedTold)
      ])
      expect(yield* dispositions(sessionId)).toEqual(["1: InNote", "2: InNote", "3: InNote"])
    })))

  it.live("400 is never retried", () => permanentFault(FakeReply.badRequest(), "invalid-request", apiError(400, "invalid_request_error")))
  it.live("401 is never retried, and holds planning: nothing recorded, nothing parked, nothing said", () =>
    inPlanJob(Effect.gen(function*() {
      const sessionId = yield* closedSession(...messages)
      yield* script(FakeReply.unauthorized())
      expect(yield* run(sessionId)).toBe("held")
      expect(yield* calls).toBe(1)
      expect(yield* eventsAfterClose(sessionId)).toEqual([])
      expect(yield* dispositions(sessionId)).toEqual(["1: AwaitingPlan", "2: AwaitingPlan", "3: AwaitingPlan"])
      expect(Option.map(yield* Effect.flatMap(PlanningHold, (h) => h.current), reasonOf)).toEqual(Option.some(
        "planning held: the model provider refused the API key (ANTHROPIC_API_KEY) (HTTP 401): " +
          "401 {\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"fake authentication_error\"}}"
      ))
    })))
  it.live("404 (an unknown model) holds planning too", () =>
    inPlanJob(Effect.gen(function*() {
      const sessionId = yield* closedSession(...messages)
      yield* script(FakeReply.error(404, "not_found_error"))
      expect(yield* run(sessionId)).toBe("held")
      expect(yield* eventsAfterClose(sessionId)).toEqual([])
      expect(Option.map(yield* Effect.flatMap(PlanningHold, (h) => h.current), (h) => h.fault)).toEqual(Option.some("unknown-model"))
    })))
  it.live("a refusal is never retried", () => permanentFault(FakeReply.refusal(), "refused", "no record_plan call (stop_reason refusal)"))
  it.live("a tool input that does not decode is never accepted", () =>
    permanentFault(
      FakeReply.toolUse({ people: "Alice" }),
      "decode",
      "Where every message of the session goes. Every seq appears in exactly one place.\n" +
        "└─ [\"people\"]\n" +
        "   └─ Expected People the messages are about, each with their notes., actual \"Alice\""
    ))

  it.live("a hang past the timeout is retried to the limit, then parked", () =>
    parkedAfter([FakeReply.hang(), FakeReply.hang(), FakeReply.hang()], "timeout", "Request timed out."), 20_000)

  it.live("a plan cut off at max_tokens is retried larger, then the chunk is split and each half planned", () =>
    inPlanJob(Effect.gen(function*() {
      const sessionId = yield* closedSession(messages[0]!, messages[2]!)
      const first = { people: [{ contactId: null, name: "Alice", notes: [{ sourceItemSeqs: [1], directives: [] }] }], unattached: [], unclear: [], botMessages: [] }
      const second = { people: [], unattached: [{ sourceItemSeqs: [2], directives: [] }], unclear: [], botMessages: [] }
      yield* script(FakeReply.maxTokens({ people: [] }), FakeReply.maxTokens({ people: [] }), FakeReply.toolUse(first), FakeReply.toolUse(second))
      expect(yield* run(sessionId)).toBe("planned")
      expect(yield* calls).toBe(4)
      expect(yield* eventsAfterClose(sessionId)).toEqual([
        personAdded("person_1", "Alice"),
        planProduced("plan_1", first, { fromSeq: 1, toSeq: 1 }),
        noteRecorded("note_1", "plan_1", toPerson("person_1", "Alice"), [source(1, 1)]),
        planApplied("plan_1", ["note_1"]),
        planProduced("plan_2", second, { fromSeq: 2, toSeq: 2 }),
        noteRecorded("note_2", "plan_2", unattached, [source(3, 2)]),
        planApplied("plan_2", ["note_2"]),
        replyQueued("reply_1", "Added 2 notes: Alice, your own notes.")
      ])
      expect(Option.getOrThrow(yield* note(NoteId.make("note_1"))).body).toBe("Alice said she is moving to Lisbon in March.")
      expect(Option.getOrThrow(yield* note(NoteId.make("note_2"))).body).toBe("I should learn some Portuguese myself.")
    })))
})

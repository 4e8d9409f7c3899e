import { describe, expect, it } from "@effect/vitest"
import * as ReplyText from "@verbatim/domain/ReplyText"
import { note } from "@verbatim/projections/Queries/Lists"
import { FakeAnthropic } from "@verbatim/testkit"
import { Effect, Option } from "effect"
import { PlanJob } from "../src/Planning/PlanJob.js"
import { PlanningHold, reasonOf } from "../src/Planning/PlanningHold.js"
import { closedSession, dispositions, eventsAfterClose, PlanJobTest, text } from "./planJobHarness.js"

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

const tags = (events: ReadonlyArray<{ readonly _tag: string }>) => events.map((e) => e._tag)

const script = (...replies: ReadonlyArray<FakeAnthropic.FakeReply>) =>
  Effect.flatMap(FakeAnthropic.FakeAnthropic, (fake) => fake.script(...replies))

const calls = Effect.flatMap(FakeAnthropic.FakeAnthropic, (fake) => Effect.map(fake.requests, (r) => r.length))

const run = (sessionId: Parameters<PlanJob["Type"]["run"]>[0]) => Effect.flatMap(PlanJob, (job) => job.run(sessionId))

const failedTold = ReplyText.questionText("failed", [])

/** The model answers only `replies`: one call each, then one failure with `reason`, every message parked, the user told. */
const parkedAfter = (replies: ReadonlyArray<FakeAnthropic.FakeReply>, reason: string) =>
  Effect.gen(function*() {
    const sessionId = yield* closedSession(...messages)
    yield* script(...replies)
    expect(yield* run(sessionId)).toBe("failed")
    expect(yield* calls).toBe(replies.length)
    const events = yield* eventsAfterClose(sessionId)
    expect(tags(events)).toEqual(["PlanFailed", "QuestionParked", "ReplyQueued"])
    expect(events[0]).toMatchObject({ _tag: "PlanFailed", reason, attempt: 1 })
    expect(events[2]).toMatchObject({ _tag: "ReplyQueued", text: failedTold, buttons: [] })
    expect(yield* dispositions(sessionId)).toEqual(["1: InQuestion", "2: InQuestion", "3: InQuestion"])
  }).pipe(Effect.provide(PlanJobTest))

/** A fault the retry policy never repeats: one call. */
const permanentFault = (reply: FakeAnthropic.FakeReply, reason: string) => parkedAfter([reply], reason)

describe("PlanJob", () => {
  it.live("records the plan, its notes, the cut directive and one reply; a second run appends nothing", () =>
    Effect.gen(function*() {
      const sessionId = yield* closedSession(...messages)
      yield* script(FakeReply.toolUse(plan, { input_tokens: 900, output_tokens: 80 }))
      expect(yield* run(sessionId)).toBe("planned")
      const events = yield* eventsAfterClose(sessionId)
      expect(tags(events)).toEqual([
        "PersonAdded",
        "PlanProduced",
        "NoteRecorded",
        "NoteRecorded",
        "InstructionRecorded",
        "PlanApplied",
        "ReplyQueued"
      ])
      expect(events[6]).toMatchObject({
        text: "Added 2 notes: Alice, your own notes.\nTaken as meant for me, so kept out of the notes: “remind me on Friday”.",
        buttons: []
      })
      const alice = Option.getOrThrow(yield* note("note_1"))
      expect(alice.body).toBe(
        "Alice said she is moving to Lisbon in March.\n\nShe wants a quiet flat near the river."
      )
      const own = Option.getOrThrow(yield* note("note_2"))
      expect(own.body).toBe("I should learn some Portuguese myself.")
      expect(yield* dispositions(sessionId)).toEqual(["1: InNote", "2: InNote", "3: InNote"])

      expect(yield* run(sessionId)).toBe("already-planned")
      expect(tags(yield* eventsAfterClose(sessionId))).toEqual(tags(events))
      expect(yield* calls).toBe(1)
    }).pipe(Effect.provide(PlanJobTest)))

  it.live("honours a 429 with retry-after, then plans", () =>
    Effect.gen(function*() {
      const sessionId = yield* closedSession(...messages)
      yield* script(FakeReply.rateLimited({ "retry-after-ms": "20" }), FakeReply.serverError(), FakeReply.toolUse(plan))
      expect(yield* run(sessionId)).toBe("planned")
      expect(yield* calls).toBe(3)
      expect(yield* dispositions(sessionId)).toEqual(["1: InNote", "2: InNote", "3: InNote"])
    }).pipe(Effect.provide(PlanJobTest)))

  it.live("a model overloaded past every retry parks the session once; a retry after recovery files it", () =>
    Effect.gen(function*() {
      const sessionId = yield* closedSession(...messages)
      yield* script(FakeReply.overloaded(), FakeReply.overloaded(), FakeReply.overloaded())
      expect(yield* run(sessionId)).toBe("failed")
      expect(yield* calls).toBe(3)
      const failed = yield* eventsAfterClose(sessionId)
      expect(tags(failed)).toEqual(["PlanFailed", "QuestionParked", "ReplyQueued"])
      expect(failed[1]).toMatchObject({ reason: "failed", sources: [{ seq: 1 }, { seq: 2 }, { seq: 3 }] })
      expect(yield* dispositions(sessionId)).toEqual(["1: InQuestion", "2: InQuestion", "3: InQuestion"])

      yield* script(FakeReply.serverError(), FakeReply.serverError(), FakeReply.serverError())
      expect(yield* run(sessionId)).toBe("failed")
      const again = yield* eventsAfterClose(sessionId)
      expect(tags(again)).toEqual([...tags(failed), "PlanFailed"])
      expect(again[3]).toMatchObject({ _tag: "PlanFailed", reason: "server", attempt: 2 })

      yield* script(FakeReply.toolUse(plan))
      expect(yield* run(sessionId)).toBe("planned")
      const after = (yield* eventsAfterClose(sessionId)).slice(again.length)
      expect(tags(after)).toEqual([
        "PersonAdded",
        "QuestionWithdrawn",
        "PlanProduced",
        "NoteRecorded",
        "NoteRecorded",
        "InstructionRecorded",
        "PlanApplied",
        "ReplyQueued"
      ])
      expect(yield* dispositions(sessionId)).toEqual(["1: InNote", "2: InNote", "3: InNote"])
    }).pipe(Effect.provide(PlanJobTest)))

  it.live("400 is never retried", () => permanentFault(FakeReply.badRequest(), "invalid-request"))
  it.live("401 is never retried, and holds planning: nothing recorded, nothing parked, nothing said", () =>
    Effect.gen(function*() {
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
    }).pipe(Effect.provide(PlanJobTest)))
  it.live("404 (an unknown model) holds planning too", () =>
    Effect.gen(function*() {
      const sessionId = yield* closedSession(...messages)
      yield* script(FakeReply.error(404, "not_found_error"))
      expect(yield* run(sessionId)).toBe("held")
      expect(yield* eventsAfterClose(sessionId)).toEqual([])
      expect(Option.map(yield* Effect.flatMap(PlanningHold, (h) => h.current), (h) => h.fault)).toEqual(Option.some("unknown-model"))
    }).pipe(Effect.provide(PlanJobTest)))
  it.live("a refusal is never retried", () => permanentFault(FakeReply.refusal(), "refused"))
  it.live("a tool input that does not decode is never accepted", () =>
    permanentFault(FakeReply.toolUse({ people: "Alice" }), "decode"))

  it.live("a hang past the timeout is retried to the limit, then parked", () =>
    parkedAfter([FakeReply.hang(), FakeReply.hang(), FakeReply.hang()], "timeout"), 20_000)

  it.live("a plan cut off at max_tokens is retried larger, then the chunk is split and each half planned", () =>
    Effect.gen(function*() {
      const sessionId = yield* closedSession(messages[0]!, messages[2]!)
      yield* script(
        FakeReply.maxTokens({ people: [] }),
        FakeReply.maxTokens({ people: [] }),
        FakeReply.toolUse({ people: [{ contactId: null, name: "Alice", notes: [{ sourceItemSeqs: [1], directives: [] }] }], unattached: [], unclear: [], botMessages: [] }),
        FakeReply.toolUse({ people: [], unattached: [{ sourceItemSeqs: [2], directives: [] }], unclear: [], botMessages: [] })
      )
      expect(yield* run(sessionId)).toBe("planned")
      expect(yield* calls).toBe(4)
      const events = yield* eventsAfterClose(sessionId)
      const produced = events.filter((e) => e._tag === "PlanProduced")
      expect(produced.map((e) => e._tag === "PlanProduced" && e.chunk)).toEqual([
        { fromSeq: 1, toSeq: 1 },
        { fromSeq: 2, toSeq: 2 }
      ])
      expect(Option.getOrThrow(yield* note("note_1")).body).toBe("Alice said she is moving to Lisbon in March.")
      expect(Option.getOrThrow(yield* note("note_2")).body).toBe("I should learn some Portuguese myself.")
    }).pipe(Effect.provide(PlanJobTest)))
})

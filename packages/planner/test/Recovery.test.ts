import { describe, expect, it } from "@effect/vitest"
import type { Plan } from "@verbatim/domain/Plan"
import { FakeAnthropic, FakeReply } from "@verbatim/testkit/FakeAnthropic"
import { planStep, ScriptedLanguageModel } from "@verbatim/testkit/ScriptedLanguageModel"
import { Duration, Effect } from "effect"
import type { PlanningChunk } from "../src/BuildRequest.js"
import type { ModelRequest } from "../src/LanguageModel.js"
import { LanguageModelError } from "../src/LanguageModelError.js"
import { recordPlanTool } from "../src/PlanningTool.js"
import { planWithRecovery, type RecoveryOptions } from "../src/Recovery.js"
import { renderUserContent } from "../src/RenderRequest.js"
import { anthropicOnFake } from "./anthropicLayer.js"
import { errorFields, first, message, second, session, third } from "./fixtures.js"

const options: RecoveryOptions = {
  retry: { maxAttempts: 2, baseDelay: Duration.millis(1), maxDelay: Duration.millis(1) },
  truncatedMaxTokens: 4096
}

/** The simplest builder: the whole chunk rendered with no contacts, capped at 1024 tokens. */
const build = (messages: PlanningChunk) =>
  Effect.succeed({
    request: {
      system: "SYSTEM",
      tool: recordPlanTool,
      userContent: renderUserContent([], messages, null),
      maxTokens: 1024,
      timeout: Duration.seconds(5)
    } satisfies ModelRequest
  })

const planFor = (seqs: ReadonlyArray<number>): Plan => ({
  people: [],
  unattached: [{ sourceItemSeqs: seqs, directives: [] }],
  unclear: [],
  botMessages: []
})

const truncated = () => new LanguageModelError({ reason: "truncated", message: "stopped at max_tokens" })

describe("planWithRecovery", () => {
  it.live("retries a cut call once with a larger cap, then plans each half (real SDK against the fake)", () =>
    Effect.gen(function*() {
      const fake = yield* FakeAnthropic
      yield* fake.script(
        FakeReply.maxTokens({ people: [{ contactId: null, name: "An" }] }),
        FakeReply.maxTokens({ people: [] }),
        FakeReply.toolUse(planFor([1, 2])),
        FakeReply.toolUse(planFor([3]))
      )
      const plans = yield* planWithRecovery(session, build, options)
      expect(plans.map((p) => ({ messages: p.messages, plan: p.result.plan, maxTokens: p.built.request.maxTokens }))).toEqual([
        { messages: [first, second], plan: planFor([1, 2]), maxTokens: 1024 },
        { messages: [third], plan: planFor([3]), maxTokens: 1024 }
      ])
      const bodies = (yield* fake.requests).map((r) => r.body as { max_tokens: number; messages: [{ content: string }] })
      expect(bodies.map((b) => [b.max_tokens, b.messages[0].content])).toEqual([
        [1024, renderUserContent([], session, null)],
        [4096, renderUserContent([], session, null)],
        [1024, renderUserContent([], [first, second], null)],
        [1024, renderUserContent([], [third], null)]
      ])
    }).pipe(Effect.provide(anthropicOnFake)))

  it.live("fails as truncated when a single message stays cut, after the one larger retry", () =>
    Effect.gen(function*() {
      const fake = yield* FakeAnthropic
      yield* fake.script(FakeReply.maxTokens({}), FakeReply.maxTokens({}), FakeReply.toolUse(planFor([1])))
      const error = yield* Effect.flip(planWithRecovery([first], build, options))
      expect({ reason: error.reason, calls: (yield* fake.requests).length }).toEqual({ reason: "truncated", calls: 2 })
    }).pipe(Effect.provide(anthropicOnFake)))

  it.effect("splits recursively, returning plans in session order", () =>
    Effect.gen(function*() {
      const four: PlanningChunk = [first, second, third, message(4, "fourth")]
      const plans = yield* planWithRecovery(four, build, options)
      expect(plans.map((p) => p.messages.map((m) => m.seq))).toEqual([[1], [2], [3, 4]])
      expect(plans.map((p) => p.result.plan)).toEqual([planFor([1]), planFor([2]), planFor([3, 4])])
      const requests = yield* ScriptedLanguageModel.requests
      expect(requests.map((r) => [r.maxTokens, r.userContent])).toEqual([
        [1024, renderUserContent([], four, null)],
        [4096, renderUserContent([], four, null)],
        [1024, renderUserContent([], [first, second], null)],
        [4096, renderUserContent([], [first, second], null)],
        [1024, renderUserContent([], [first], null)],
        [1024, renderUserContent([], [second], null)],
        [1024, renderUserContent([], [third, four[3]!], null)]
      ])
    }).pipe(
      Effect.provide(
        ScriptedLanguageModel.layer([
          truncated(),
          truncated(),
          truncated(),
          truncated(),
          planStep(planFor([1])),
          planStep(planFor([2])),
          planStep(planFor([3, 4]))
        ])
      )
    ))

  it.effect("splits straight away when the larger cap is no larger", () =>
    Effect.gen(function*() {
      const plans = yield* planWithRecovery([first, second], build, { ...options, truncatedMaxTokens: 1024 })
      expect(plans.map((p) => p.result.plan)).toEqual([planFor([1]), planFor([2])])
      expect((yield* ScriptedLanguageModel.requests).map((r) => r.maxTokens)).toEqual([1024, 1024, 1024])
    }).pipe(Effect.provide(ScriptedLanguageModel.layer([truncated(), planStep(planFor([1])), planStep(planFor([2]))]))))

  it.effect("lets any other error fail the whole chunk, without splitting", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(planWithRecovery(session, build, options))
      expect(errorFields(error)).toEqual(errorFields(new LanguageModelError({ reason: "auth", message: "bad key", status: 401 })))
      expect((yield* ScriptedLanguageModel.requests).length).toBe(1)
    }).pipe(
      Effect.provide(
        ScriptedLanguageModel.layer([new LanguageModelError({ reason: "auth", message: "bad key", status: 401 })])
      )
    ))
})

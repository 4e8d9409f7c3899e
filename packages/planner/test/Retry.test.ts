import { describe, expect, it } from "@effect/vitest"
import type { Plan } from "@verbatim/domain/Plan"
import { planStep, ScriptedLanguageModel } from "@verbatim/testkit/ScriptedLanguageModel"
import { Duration, Effect, Exit, Fiber, TestClock } from "effect"
import { LanguageModel, type ModelRequest, planOf } from "../src/LanguageModel.js"
import { LanguageModelError, type LanguageModelErrorReason } from "../src/LanguageModelError.js"
import { recordPlanTool } from "../src/PlanningTool.js"
import { type RetryPolicy, withRetry } from "../src/Retry.js"
import { errorFields } from "./fixtures.js"

const request: ModelRequest = {
  system: "SYSTEM",
  tool: recordPlanTool,
  userContent: "CONTENT",
  maxTokens: 1024,
  timeout: Duration.seconds(5)
}
const plan: Plan = { people: [], unattached: [], unclear: [], botMessages: [1] }
const policy: RetryPolicy = { maxAttempts: 5, baseDelay: Duration.seconds(1), maxDelay: Duration.seconds(2) }
const fault = (reason: LanguageModelErrorReason, retryAfterMs?: number) =>
  new LanguageModelError({ reason, message: reason, retryAfterMs })

/** Starts the call in the background, so the test can move the clock and count calls in between. */
const start = Effect.flatMap(LanguageModel, (model) => Effect.fork(withRetry(policy)(planOf(model)(request))))
const calls = Effect.map(ScriptedLanguageModel.requests, (requests) => requests.length)
/** Moves the test clock, then lets the woken fiber reach its next call. */
const advance = (duration: Duration.DurationInput) =>
  TestClock.adjust(duration).pipe(Effect.zipRight(Effect.repeatN(Effect.yieldNow(), 20)))

describe("retry policy", () => {
  it.effect("waits at least the provider's retry-after, far above the backoff", () =>
    Effect.gen(function*() {
      const fiber = yield* start
      yield* advance(Duration.millis(29_999))
      expect(yield* calls).toBe(1)
      yield* advance(Duration.millis(1))
      expect(yield* calls).toBe(2)
      expect(yield* Fiber.join(fiber)).toMatchObject({ plan })
    }).pipe(Effect.provide(ScriptedLanguageModel.layer([fault("rate-limited", 30_000), planStep(plan)]))))

  it.effect("backs off exponentially with jitter, capped at maxDelay, and stops after maxAttempts", () =>
    Effect.gen(function*() {
      const fiber = yield* start
      yield* advance(Duration.zero)
      expect(yield* calls).toBe(1)
      // First delay is 1 s ± 20% jitter: not before 0.8 s, surely by 1.2 s.
      yield* advance(Duration.millis(799))
      expect(yield* calls).toBe(1)
      yield* advance(Duration.millis(401))
      expect(yield* calls).toBe(2)
      // Later delays would be 2 s, 4 s, 8 s … but are capped at 2 s.
      yield* advance(Duration.seconds(2))
      expect(yield* calls).toBe(3)
      yield* advance(Duration.seconds(2))
      expect(yield* calls).toBe(4)
      yield* advance(Duration.seconds(2))
      expect(yield* calls).toBe(5)
      expect(Exit.mapError(yield* Fiber.await(fiber), errorFields)).toEqual(Exit.fail(errorFields(fault("server"))))
    }).pipe(
      Effect.provide(
        ScriptedLanguageModel.layer([fault("overloaded"), fault("timeout"), fault("rate-limited"), fault("server"), fault("server")])
      )
    ))

  const never: ReadonlyArray<LanguageModelErrorReason> = ["invalid-request", "auth", "refused", "decode", "truncated"]
  for (const reason of never) {
    it.effect(`never retries ${reason}`, () =>
      Effect.gen(function*() {
        const fiber = yield* start
        expect(Exit.mapError(yield* Fiber.await(fiber), errorFields)).toEqual(Exit.fail(errorFields(fault(reason))))
        expect(yield* calls).toBe(1)
      }).pipe(Effect.provide(ScriptedLanguageModel.layer([fault(reason), planStep(plan)]))))
  }
})

import { describe, expect, it } from "@effect/vitest"
import type { Plan } from "@verbatim/domain/Plan"
import { FakeAnthropic, FakeReply, rawJson } from "@verbatim/testkit/FakeAnthropic"
import { Clock, Duration, Effect, Exit } from "effect"
import { LanguageModel, type ModelRequest, planOf } from "../src/LanguageModel.js"
import { recordPlanTool } from "../src/PlanningTool.js"
import { renderUserContent } from "../src/RenderRequest.js"
import { type RetryPolicy, withRetry } from "../src/Retry.js"
import { anthropicOnFake } from "./anthropicLayer.js"
import { session } from "./fixtures.js"

const request: ModelRequest = {
  system: "SYSTEM",
  tool: recordPlanTool,
  userContent: renderUserContent([], session, null),
  maxTokens: 1024,
  timeout: Duration.millis(300)
}

const policy: RetryPolicy = { maxAttempts: 3, baseDelay: Duration.millis(1), maxDelay: Duration.millis(5) }

const plan: Plan = {
  people: [{ contactId: null, name: "Anna", notes: [{ sourceItemSeqs: [1, 2], directives: [] }] }],
  unattached: [],
  unclear: [],
  botMessages: [3]
}

/** Runs one call under the policy and sums up what happened, including how often the fake was called. */
const outcome = (replies: ReadonlyArray<FakeReply>, retry: RetryPolicy = policy) =>
  Effect.gen(function*() {
    const fake = yield* FakeAnthropic
    const model = yield* LanguageModel
    yield* fake.script(...replies)
    const exit = yield* Effect.exit(withRetry(retry)(planOf(model)(request)))
    const calls = (yield* fake.requests).length
    return Exit.match(exit, {
      onFailure: (cause) => {
        const error = cause._tag === "Fail" ? cause.error : undefined
        return { calls, reason: error?.reason, status: error?.status, retryAfterMs: error?.retryAfterMs, message: error?.message }
      },
      onSuccess: (result) => ({ calls, reason: "ok", stopReason: result.stopReason })
    })
  }).pipe(Effect.provide(anthropicOnFake))

const apiMessage = (status: number, type: string) =>
  `${status} {"type":"error","error":{"type":"${type}","message":"fake ${type}"}}`

describe("Anthropic layer against the fake Messages API (real SDK, loopback HTTP)", () => {
  it.live("returns the decoded plan, the raw input, usage with cache figures, and the model", () =>
    Effect.gen(function*() {
      const fake = yield* FakeAnthropic
      const model = yield* LanguageModel
      yield* fake.script(
        FakeReply.toolUse(plan, { input_tokens: 1200, output_tokens: 80, cache_creation_input_tokens: 900, cache_read_input_tokens: 300 })
      )
      const { durationMs, ...result } = yield* planOf(model)(request)
      expect(result).toEqual({
        plan,
        raw: plan,
        stopReason: "tool_use",
        usage: { inputTokens: 1200, outputTokens: 80, cacheReadTokens: 300, cacheWriteTokens: 900 },
        model: "claude-test"
      })
      expect(durationMs).toBeGreaterThanOrEqual(0)
    }).pipe(Effect.provide(anthropicOnFake)))

  const retried = (reason: string, status: number | undefined, message: string, retryAfterMs?: number) => ({
    calls: 3,
    reason,
    status,
    retryAfterMs,
    message
  })
  const once = (reason: string, status: number | undefined, message: string) => ({
    calls: 1,
    reason,
    status,
    retryAfterMs: undefined,
    message
  })
  const matrix: ReadonlyArray<readonly [string, () => FakeReply, object]> = [
    ["429 is retried to the limit", () => FakeReply.rateLimited({ "retry-after": "0" }), retried("rate-limited", 429, apiMessage(429, "rate_limit_error"), 0)],
    ["529 is retried to the limit", FakeReply.overloaded, retried("overloaded", 529, apiMessage(529, "overloaded_error"))],
    ["500 is retried to the limit", FakeReply.serverError, retried("server", 500, apiMessage(500, "api_error"))],
    ["409 is retried to the limit", () => FakeReply.error(409, "conflict_error"), retried("server", 409, apiMessage(409, "conflict_error"))],
    ["408 is retried to the limit", () => FakeReply.error(408, "timeout_error"), retried("timeout", 408, apiMessage(408, "timeout_error"))],
    ["a hang past the timeout is retried to the limit", FakeReply.hang, retried("timeout", undefined, "Request timed out.")],
    ["a tool call cut at max_tokens is truncated, never a shorter plan", () => FakeReply.maxTokens({ people: [] }), once("truncated", undefined, "stopped at max_tokens")],
    ["a refusal is refused", FakeReply.refusal, once("refused", undefined, "no record_plan call (stop_reason refusal)")],
    ["400 is not retried", FakeReply.badRequest, once("invalid-request", 400, apiMessage(400, "invalid_request_error"))],
    ["404 is not retried", () => FakeReply.error(404, "not_found_error"), once("invalid-request", 404, apiMessage(404, "not_found_error"))],
    ["413 is not retried", () => FakeReply.error(413, "request_too_large"), once("invalid-request", 413, apiMessage(413, "request_too_large"))],
    ["401 is not retried", FakeReply.unauthorized, once("auth", 401, apiMessage(401, "authentication_error"))],
    ["403 is not retried", () => FakeReply.error(403, "permission_error"), once("auth", 403, apiMessage(403, "permission_error"))]
  ]
  for (const [name, reply, expected] of matrix) {
    it.live(name, () => Effect.map(outcome([reply(), reply(), reply(), FakeReply.toolUse(plan)]), (o) => expect(o).toEqual(expected)))
  }

  it.live("a tool input that does not decode is a decode error, not retried", () =>
    Effect.map(outcome([FakeReply.toolUse({ people: "Anna" }), FakeReply.toolUse(plan)]), (o) =>
      expect(o).toEqual({
        calls: 1,
        reason: "decode",
        status: undefined,
        retryAfterMs: undefined,
        message: [
          "Where every message of the session goes. Every seq appears in exactly one place.",
          "└─ [\"people\"]",
          "   └─ Expected People the messages are about, each with their notes., actual \"Anna\""
        ].join("\n")
      })))

  it.live("a tool input holding a number JSON cannot store (1e400 reads as Infinity) is a decode error, not a plan", () =>
    Effect.map(outcome([FakeReply.toolUse({ ...plan, confidence: rawJson("1e400") }), FakeReply.toolUse(plan)]), (o) =>
      expect(o).toEqual({ calls: 1, reason: "decode", status: undefined, retryAfterMs: undefined, message: "Expected a JSON value, but $.confidence is Infinity" })))

  it.live("recovers after transient faults, waiting at least the retry-after the provider asked for", () =>
    Effect.gen(function*() {
      const started = yield* Clock.currentTimeMillis
      const o = yield* outcome([FakeReply.rateLimited({ "retry-after-ms": "150" }), FakeReply.serverError(), FakeReply.toolUse(plan)])
      const elapsed = (yield* Clock.currentTimeMillis) - started
      expect(o).toEqual({ calls: 3, reason: "ok", stopReason: "tool_use" })
      expect(elapsed).toBeGreaterThanOrEqual(150)
    }))

  it.live("reports the retry-after in seconds as milliseconds when attempts run out", () =>
    Effect.map(outcome([FakeReply.rateLimited({ "retry-after": "7" })], { ...policy, maxAttempts: 1 }), (o) =>
      expect(o).toEqual({ calls: 1, reason: "rate-limited", status: 429, retryAfterMs: 7000, message: apiMessage(429, "rate_limit_error") })))
})

/** The one retry policy for model calls: backoff with jitter, bounded, honouring the provider's retry-after. */
import { Config, Duration, Effect, Schedule } from "effect"
import type { LanguageModelError, LanguageModelErrorReason } from "./LanguageModelError.js"

/** Bounds of the policy. `maxAttempts` counts the first call. */
export interface RetryPolicy {
  readonly maxAttempts: number
  readonly baseDelay: Duration.Duration
  readonly maxDelay: Duration.Duration
}

/** Reasons a second try can fix: the request was fine, the provider was not (408, 409, 429, 5xx, 529, timeouts). */
const retryableReasons: ReadonlySet<LanguageModelErrorReason> = new Set([
  "rate-limited",
  "overloaded",
  "server",
  "timeout"
])

/** Whether the schedule retries this error. Truncation is recovered elsewhere, never by repeating the same call. */
export const isRetryable = (error: LanguageModelError): boolean => retryableReasons.has(error.reason)

/** Defaults: four attempts, 1 s doubling with jitter, at most 30 s between tries. */
export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 4,
  baseDelay: Duration.seconds(1),
  maxDelay: Duration.seconds(30)
}

/** `VERBATIM_MODEL_MAX_ATTEMPTS`, `VERBATIM_MODEL_RETRY_BASE`, `VERBATIM_MODEL_RETRY_MAX` (durations like "2 seconds"). */
export const retryPolicyConfig: Config.Config<RetryPolicy> = Config.all({
  maxAttempts: Config.integer("VERBATIM_MODEL_MAX_ATTEMPTS").pipe(
    Config.withDefault(defaultRetryPolicy.maxAttempts),
    Config.validate({ message: "must be at least 1", validation: (n) => n >= 1 })
  ),
  baseDelay: Config.duration("VERBATIM_MODEL_RETRY_BASE").pipe(Config.withDefault(defaultRetryPolicy.baseDelay)),
  maxDelay: Config.duration("VERBATIM_MODEL_RETRY_MAX").pipe(Config.withDefault(defaultRetryPolicy.maxDelay))
})

/**
 * Exponential backoff with jitter, capped at `maxDelay`, for at most `maxAttempts - 1` retries of retryable
 * errors. When the provider said how long to wait, the delay is at least that, even above `maxDelay`:
 * calling earlier only earns another 429.
 */
export const retrySchedule = (policy: RetryPolicy): Schedule.Schedule<unknown, LanguageModelError> => {
  const backoff = Schedule.exponential(policy.baseDelay).pipe(
    Schedule.jittered,
    Schedule.modifyDelay((_, delay) => Duration.min(delay, policy.maxDelay))
  )
  return Schedule.identity<LanguageModelError>().pipe(
    Schedule.intersect(backoff),
    Schedule.intersect(Schedule.recurs(Math.max(0, policy.maxAttempts - 1))),
    Schedule.whileInput(isRetryable),
    Schedule.modifyDelay(([[error]], delay) =>
      error.retryAfterMs === undefined ? delay : Duration.max(delay, Duration.millis(error.retryAfterMs))
    )
  )
}

/** Runs a model call under the policy. */
export const withRetry =
  (policy: RetryPolicy) =>
  <A, R>(call: Effect.Effect<A, LanguageModelError, R>): Effect.Effect<A, LanguageModelError, R> =>
    Effect.retry(call, retrySchedule(policy))

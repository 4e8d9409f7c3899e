/** The one error a model call fails with; `reason` says what happened and whether a retry can help. */
import { Data, Schema } from "effect"

/** Why a model call failed. A subset of the domain's `PlanFailureReason`, so it can be recorded as is. */
export const LanguageModelErrorReason = Schema.Literal(
  "rate-limited",
  "overloaded",
  "server",
  "timeout",
  "truncated",
  "refused",
  "invalid-request",
  "auth",
  "decode"
)
export type LanguageModelErrorReason = typeof LanguageModelErrorReason.Type

/** A failed model call. `retryAfterMs` is set only when the provider said how long to wait. */
export class LanguageModelError extends Data.TaggedError("LanguageModelError")<{
  readonly reason: LanguageModelErrorReason
  readonly message: string
  /** HTTP status of the provider's answer, when there was one. */
  readonly status?: number | undefined
  readonly retryAfterMs?: number | undefined
  readonly cause?: unknown
}> {}

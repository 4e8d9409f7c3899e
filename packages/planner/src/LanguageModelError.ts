/** The one error a model call fails with; `reason` says what happened and whether a retry can help. */
import { PlanFailureReason } from "@verbatim/domain/Events"
import { Data } from "effect"

/** Why a model call failed: the domain's `PlanFailureReason`, so a failure is recorded as is. */
export const LanguageModelErrorReason = PlanFailureReason
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

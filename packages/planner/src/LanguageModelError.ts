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

/**
 * A failure only the operator can cure: the key is refused (401), lacks permission (403), the
 * configured model is unknown (404) or the account cannot pay (402, or the provider's 400 about
 * the credit balance). Repeating the call or asking the user changes nothing until they act.
 */
export type OperatorFault = "credentials" | "permission" | "unknown-model" | "billing"

const billing = /credit balance|billing/i

/** The operator fault behind `error`, or null when the failure is the provider's or the request's. */
export const operatorFault = (error: LanguageModelError): OperatorFault | null => {
  switch (error.status) {
    case 401:
      return "credentials"
    case 402:
      return "billing"
    case 403:
      return billing.test(error.message) ? "billing" : "permission"
    case 404:
      return "unknown-model"
    case 400:
      return billing.test(error.message) ? "billing" : null
    default:
      return null
  }
}

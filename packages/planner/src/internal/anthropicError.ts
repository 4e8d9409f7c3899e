/** Maps what the Anthropic SDK throws onto a `LanguageModelError` reason. */
import Anthropic from "@anthropic-ai/sdk"
import { LanguageModelError, type LanguageModelErrorReason } from "../LanguageModelError.js"

/** Status codes the provider uses, read as what a caller can do about them. */
export const reasonOfStatus = (status: number): LanguageModelErrorReason => {
  if (status === 408) return "timeout"
  if (status === 429) return "rate-limited"
  if (status === 529) return "overloaded"
  // 409 is a conflict on the provider's side; the same request may well succeed again.
  if (status === 409 || status >= 500) return "server"
  if (status === 401 || status === 403) return "auth"
  return "invalid-request"
}

/**
 * How long the provider asked us to wait: `retry-after-ms`, else `retry-after` in seconds or as an
 * HTTP date (relative to `nowMs`). Undefined when absent or unreadable.
 */
export const retryAfterMs = (headers: Headers | undefined, nowMs: number): number | undefined => {
  const ms = headers?.get("retry-after-ms")
  if (ms != null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms))
  const value = headers?.get("retry-after")?.trim()
  if (value == null || value === "") return undefined
  if (Number.isFinite(Number(value))) return Math.max(0, Number(value) * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs)
}

/** Any throwable from the SDK as a typed error; nothing escapes as a defect. */
export const fromSdkError = (error: unknown, nowMs: number): LanguageModelError => {
  if (error instanceof Anthropic.APIConnectionTimeoutError) {
    return new LanguageModelError({ reason: "timeout", message: error.message, cause: error })
  }
  // A dropped connection says nothing about the request; the provider may answer the next one.
  if (error instanceof Anthropic.APIConnectionError) {
    return new LanguageModelError({ reason: "server", message: error.message, cause: error })
  }
  if (error instanceof Anthropic.APIError && typeof error.status === "number") {
    return new LanguageModelError({
      reason: reasonOfStatus(error.status),
      message: error.message,
      status: error.status,
      retryAfterMs: retryAfterMs(error.headers, nowMs),
      cause: error
    })
  }
  // The SDK refusing before sending (bad options) or anything unforeseen: repeating it will not help.
  const message = error instanceof Error ? error.message : String(error)
  return new LanguageModelError({ reason: "invalid-request", message, cause: error })
}

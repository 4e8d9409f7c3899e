/**
 * Planning one chunk without ever accepting a cut tool call: retry by policy, retry a truncated call
 * once with a larger cap, then split the chunk in two and plan each half, down to single messages.
 */
import { Effect } from "effect"
import type { PlanningChunk } from "./BuildRequest.js"
import { LanguageModel, type ModelRequest, planOf, type PlanResult } from "./LanguageModel.js"
import { LanguageModelError } from "./LanguageModelError.js"
import { type RetryPolicy, withRetry } from "./Retry.js"

/** How hard to try. */
export interface RecoveryOptions {
  readonly retry: RetryPolicy
  /**
   * `max_tokens` for the one retry of a truncated call; it must still fit the context window.
   * When it is not above the request's own cap, a truncated chunk is split straight away.
   */
  readonly truncatedMaxTokens: number
}

/** A plan for some consecutive messages, with the request (and cap) that produced it. */
export interface ChunkPlan<B extends { readonly request: ModelRequest }> {
  readonly messages: PlanningChunk
  readonly built: B
  readonly result: PlanResult
}

const isTruncated = (error: LanguageModelError) => error.reason === "truncated"

/** Halves in session order; only called with two messages or more. */
const halves = (messages: PlanningChunk): readonly [PlanningChunk, PlanningChunk] => {
  const middle = Math.ceil(messages.length / 2)
  return [messages.slice(0, middle) as unknown as PlanningChunk, messages.slice(middle) as unknown as PlanningChunk]
}

/**
 * Plans `messages` as one request built by `build`; on a truncation that the larger cap does not
 * cure, plans each half (recursively) and returns their plans in session order. A single message
 * that stays truncated fails as `truncated`; any other error fails the whole call.
 */
export const planWithRecovery = <B extends { readonly request: ModelRequest }, E, R>(
  messages: PlanningChunk,
  build: (messages: PlanningChunk) => Effect.Effect<B, E, R>,
  options: RecoveryOptions
): Effect.Effect<ReadonlyArray<ChunkPlan<B>>, LanguageModelError | E, R | LanguageModel> => {
  const call = (built: B) =>
    Effect.flatMap(LanguageModel, (model) => withRetry(options.retry)(planOf(model)(built.request))).pipe(
      Effect.map((result): ChunkPlan<B> => ({ messages, built, result }))
    )
  const once = (built: B) =>
    call(built).pipe(
      Effect.catchIf(
        (error) => isTruncated(error) && options.truncatedMaxTokens > built.request.maxTokens,
        () => call({ ...built, request: { ...built.request, maxTokens: options.truncatedMaxTokens } })
      )
    )
  return Effect.flatMap(build(messages), once).pipe(
    Effect.map((plan): ReadonlyArray<ChunkPlan<B>> => [plan]),
    Effect.catchIf(
      (error): error is LanguageModelError =>
        error instanceof LanguageModelError && isTruncated(error) && messages.length > 1,
      () =>
        Effect.forEach(halves(messages), (half) => planWithRecovery(half, build, options)).pipe(
          Effect.map((plans) => plans.flat())
        )
    ),
    Effect.withSpan("Recovery.planWithRecovery", { attributes: { messages: messages.length } })
  )
}

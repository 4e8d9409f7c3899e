/** Counting tokens for the model: one text, or a whole request. */
import { Context, Effect, Layer } from "effect"
import type { TokenCounter } from "@verbatim/domain/TokenCounter"
import * as TokenEstimator from "./TokenEstimator.js"

export type { TokenRequest } from "./TokenEstimator.js"

/** Counts tokens as the model's provider would, or more (never fewer, when it can help it). */
export class Tokenizer extends Context.Tag("@verbatim/planner/Tokenizer")<Tokenizer, {
  readonly countText: (text: string) => Effect.Effect<number>
  readonly countRequest: (request: TokenEstimator.TokenRequest) => Effect.Effect<number>
}>() {
  /** The conservative local estimator (`TokenEstimator`): no network, never under-counts. */
  static readonly layer: Layer.Layer<Tokenizer> = Layer.sync(
    Tokenizer,
    () => make(TokenEstimator.textTokens, TokenEstimator.requestTokens)
  )
}

/** A tokenizer from two pure counting functions. */
export const make = (
  countText: (text: string) => number,
  countRequest: (request: TokenEstimator.TokenRequest) => number
): Tokenizer["Type"] => ({
  countText: (text) => Effect.sync(() => countText(text)),
  countRequest: (request) => Effect.sync(() => countRequest(request))
})

/**
 * A synchronous counter for the domain's truncation functions: each distinct text of `texts`
 * is counted once through the service; any other text (the prefixes tried while cutting) by
 * the local estimator, which never under-counts.
 */
export const counterFor = Effect.fn("Tokenizer.counterFor")(function*(texts: Iterable<string>) {
  const tokenizer = yield* Tokenizer
  const distinct = Array.from(new Set(texts))
  const counts = yield* Effect.forEach(distinct, tokenizer.countText, { concurrency: 8 })
  const known = new Map(distinct.map((text, index) => [text, counts[index]!]))
  const counter: TokenCounter = (text) => known.get(text) ?? TokenEstimator.textTokens(text)
  return counter
})

/** Exact token counts from Anthropic's `count_tokens` endpoint, cached, with the estimator as fallback. */
import Anthropic from "@anthropic-ai/sdk"
import { Config, type ConfigError, Data, Effect, Layer, Option, Redacted } from "effect"
import { createHash } from "node:crypto"
import * as TokenEstimator from "./TokenEstimator.js"
import { Tokenizer } from "./Tokenizer.js"

/** Where and as which model to count. */
export interface Options {
  readonly apiKey: Redacted.Redacted
  readonly baseURL: string
  readonly model: string
  /** Counts remembered, oldest forgotten first (each entry is a hash and a number). */
  readonly cacheCapacity?: number
}

/** Why a count came from the estimator; it never leaves this module (the fallback absorbs it). */
class CountTokensError extends Data.TaggedError("CountTokensError")<{
  readonly reason: "unreachable" | "rejected"
  readonly cause: unknown
}> {}

const countTokensError = (cause: unknown): CountTokensError =>
  new CountTokensError({ reason: cause instanceof Anthropic.APIConnectionError ? "unreachable" : "rejected", cause })

const defaultBaseURL = "https://api.anthropic.com"

type CountParams = Anthropic.Messages.MessageCountTokensParams

const paramsOf = (model: string, request: TokenEstimator.TokenRequest): CountParams => ({
  model,
  ...(request.system === "" ? {} : { system: request.system }),
  // Tool definitions arrive already shaped for the Messages API; the SDK's type is narrower than `unknown`.
  ...(request.tools.length === 0 ? {} : { tools: request.tools as CountParams["tools"] & {} }),
  messages: request.messages.map((message) => ({ role: message.role, content: message.content }))
})

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex")

/**
 * A `Tokenizer` that asks `count_tokens`. Identical requests (same model and content, by
 * sha256) are answered from a cache. When the API is unreachable or answers an error, the
 * local estimator answers instead (not cached, so the exact count returns with the API).
 */
export const make = Effect.fn("AnthropicTokenCounter.make")(function*(options: Options) {
  // No retries: the estimator is a sound answer right away, and planning should not wait on counting.
  const client = new Anthropic({
    apiKey: Redacted.value(options.apiKey),
    authToken: null,
    baseURL: options.baseURL,
    maxRetries: 0,
    timeout: 10_000
  })
  const capacity = options.cacheCapacity ?? 10_000
  const cache = new Map<string, number>()
  const remember = (key: string, tokens: number) =>
    Effect.sync(() => {
      if (cache.size >= capacity) cache.delete(cache.keys().next().value!)
      cache.set(key, tokens)
    })

  const countRequest = Effect.fn("AnthropicTokenCounter.countRequest")(function*(request: TokenEstimator.TokenRequest) {
    const params = paramsOf(options.model, request)
    const key = sha256(JSON.stringify(params))
    const cached = cache.get(key)
    if (cached !== undefined) return cached
    return yield* Effect.tryPromise({
      try: (signal) => client.messages.countTokens(params, { signal }),
      catch: countTokensError
    }).pipe(
      Effect.map((response) => response.input_tokens),
      Effect.tap((tokens) => remember(key, tokens)),
      Effect.catchAll((error) =>
        Effect.logWarning("count_tokens failed; using the local estimate").pipe(
          Effect.annotateLogs({ reason: error.reason, error: String(error.cause) }),
          Effect.as(TokenEstimator.requestTokens(request))
        )
      )
    )
  })

  // A text is counted as the one user message of a request: the framing makes it over-count slightly.
  const countText = (text: string) =>
    text === "" ? Effect.succeed(0) : countRequest({ system: "", tools: [], messages: [{ role: "user", content: text }] })

  return { countText, countRequest } satisfies Tokenizer["Type"]
})

/** `make` as a layer. */
export const layer = (options: Options): Layer.Layer<Tokenizer> => Layer.effect(Tokenizer, make(options))

/**
 * From `ANTHROPIC_API_KEY` (redacted), `ANTHROPIC_BASE_URL` (optional) and `VERBATIM_MODEL`
 * (default `claude-sonnet-4-5`). Without a key the local estimator counts, as in `Tokenizer.layer`.
 */
export const layerConfig: Layer.Layer<Tokenizer, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.gen(function*() {
    const apiKey = yield* Config.option(Config.redacted("ANTHROPIC_API_KEY"))
    const baseURL = yield* Config.string("ANTHROPIC_BASE_URL").pipe(Config.withDefault(defaultBaseURL))
    const model = yield* Config.string("VERBATIM_MODEL").pipe(Config.withDefault("claude-sonnet-4-5"))
    return Option.match(apiKey, {
      onNone: () => Tokenizer.layer,
      onSome: (key) => layer({ apiKey: key, baseURL, model })
    })
  })
)

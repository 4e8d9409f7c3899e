/**
 * `LanguageModel` on the Anthropic Messages API: one tool the model is asked to call, cached prefix, no
 * SDK retries, the SDK's own logging on the Effect logger.
 */
import Anthropic from "@anthropic-ai/sdk"
import { Json } from "@verbatim/domain/Json"
import { Clock, Config, type ConfigError, Duration, Effect, Layer, Option, ParseResult, Schema } from "effect"
import { anthropicClient, type ClientOptions } from "./internal/anthropicClient.js"
import { fromSdkError } from "./internal/anthropicError.js"
import { deprecatedModels } from "./internal/deprecatedModels.js"
import { LanguageModel, type ModelRequest, type ToolCall } from "./LanguageModel.js"
import { LanguageModelError } from "./LanguageModelError.js"

/** What the layer needs; `layerConfig` reads it from the environment. */
export type AnthropicOptions = ClientOptions

/** The model planned with unless `VERBATIM_MODEL` says otherwise: one the SDK knows and does not list as deprecated. */
export const defaultModel = "claude-sonnet-5-5"

/** `ANTHROPIC_API_KEY` (secret), `VERBATIM_MODEL`, `ANTHROPIC_BASE_URL`, `VERBATIM_MODEL_TIMEOUT`. */
export const anthropicConfig: Config.Config<AnthropicOptions> = Config.all({
  apiKey: Config.redacted("ANTHROPIC_API_KEY"),
  model: Config.string("VERBATIM_MODEL").pipe(Config.withDefault(defaultModel)),
  baseUrl: Config.option(Config.string("ANTHROPIC_BASE_URL")),
  timeout: Config.duration("VERBATIM_MODEL_TIMEOUT").pipe(Config.withDefault(Duration.minutes(2)))
})

const ephemeral = { type: "ephemeral" } as const

/**
 * The Messages API body for a request: one tool, which the system prompt asks the model to call
 * once; system prompt and tool carry the cache breakpoints. The tool choice is `auto`, not forced:
 * Claude Sonnet 5.5 (the default model) answers a forced tool choice with a 400. A reply without
 * the call is a `refused` error, retried like any other.
 */
export const messageParams = (model: string, request: ModelRequest): Anthropic.MessageCreateParamsNonStreaming => ({
  model,
  max_tokens: request.maxTokens,
  system: [{ type: "text", text: request.system, cache_control: ephemeral }],
  tools: [
    {
      name: request.tool.name,
      description: request.tool.description,
      input_schema: { ...request.tool.inputSchema, required: [...request.tool.inputSchema.required] },
      cache_control: ephemeral
    }
  ],
  tool_choice: { type: "auto" },
  messages: [{ role: "user", content: request.userContent }]
})

const decodeJson = Schema.decodeUnknown(Json)

/** A Messages API answer as the tool's input, or the typed error it amounts to (cut, refused, not JSON). */
export const readResponse = (request: ModelRequest, message: Anthropic.Message, durationMs: number) =>
  Effect.gen(function*() {
    // A tool call cut at the token cap may still parse as a smaller plan; accepting it would lose messages.
    if (message.stop_reason === "max_tokens" || message.stop_reason === "model_context_window_exceeded") {
      return yield* new LanguageModelError({ reason: "truncated", message: `stopped at ${message.stop_reason}` })
    }
    const call = message.content.find(
      (block): block is Anthropic.ToolUseBlock => block.type === "tool_use" && block.name === request.tool.name
    )
    if (message.stop_reason === "refusal" || call === undefined) {
      return yield* new LanguageModelError({
        reason: "refused",
        message: `no ${request.tool.name} call (stop_reason ${String(message.stop_reason)})`
      })
    }
    const raw = yield* decodeJson(call.input).pipe(
      Effect.mapError((error) =>
        new LanguageModelError({ reason: "decode", message: ParseResult.TreeFormatter.formatErrorSync(error), cause: error })
      )
    )
    return {
      raw,
      stopReason: String(message.stop_reason),
      usage: {
        inputTokens: message.usage.input_tokens,
        outputTokens: message.usage.output_tokens,
        cacheReadTokens: message.usage.cache_read_input_tokens ?? 0,
        cacheWriteTokens: message.usage.cache_creation_input_tokens ?? 0
      },
      model: message.model,
      durationMs
    } satisfies ToolCall
  })

/** The configured model's end-of-life date when the installed SDK lists it as deprecated. */
export const deprecation = (model: string): Option.Option<string> => Option.fromNullable(deprecatedModels()[model])

/** Builds the service over one SDK client; a deprecated model is warned about here, once. */
export const make = (options: AnthropicOptions) =>
  Effect.gen(function*() {
    const endOfLife = deprecation(options.model)
    if (Option.isSome(endOfLife)) {
      yield* Effect.logWarning(
        `the model ${options.model} is deprecated and reaches its end of life on ${endOfLife.value}; set VERBATIM_MODEL to a current model (default ${defaultModel})`
      ).pipe(Effect.annotateLogs({ model: options.model, endOfLife: endOfLife.value }))
    }
    const client = yield* anthropicClient(options)
    const call = Effect.fn("AnthropicLanguageModel.call")(function*(request: ModelRequest) {
      yield* Effect.annotateCurrentSpan({ model: options.model, maxTokens: request.maxTokens })
      const started = yield* Clock.currentTimeMillis
      const message = yield* Effect.tryPromise({
        // The Messages endpoint through the client's own `post`: `messages.create` writes its
        // deprecation notice to the console on every call, and start-up has said it once already.
        try: (signal) =>
          client.post<Anthropic.Message>("/v1/messages", {
            body: messageParams(options.model, request),
            signal,
            timeout: Duration.toMillis(request.timeout),
            maxRetries: 0
          }),
        // Measuring an HTTP-date retry-after from the start only lengthens the wait, which is the safe side.
        catch: (error) => fromSdkError(error, started)
      })
      const finished = yield* Clock.currentTimeMillis
      return yield* readResponse(request, message, finished - started)
    })
    return LanguageModel.of({ call })
  })

/** The layer over explicit options. */
export const layer = (options: AnthropicOptions): Layer.Layer<LanguageModel> => Layer.effect(LanguageModel, make(options))

/** The layer over `anthropicConfig`. */
export const layerConfig: Layer.Layer<LanguageModel, ConfigError.ConfigError> = Layer.effect(
  LanguageModel,
  Effect.flatMap(anthropicConfig, make)
)

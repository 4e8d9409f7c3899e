/** The SDK client as every Anthropic layer builds it: explicit base URL, no SDK retries, its logging on the Effect logger. */
import Anthropic from "@anthropic-ai/sdk"
import { Duration, Effect, Option, Redacted } from "effect"
import { sdkLogger } from "./sdkLogger.js"

/** The settings a client is made from (the `AnthropicOptions` of a layer). */
export interface ClientOptions {
  readonly apiKey: Redacted.Redacted<string>
  readonly model: string
  readonly baseUrl: Option.Option<string>
  /** Client default; a request's own `timeout` governs its call. */
  readonly timeout: Duration.Duration
}

export const anthropicClient = (options: ClientOptions) =>
  Effect.map(Effect.runtime<never>(), (runtime) =>
    new Anthropic({
      apiKey: Redacted.value(options.apiKey),
      // Always explicit, so the SDK never falls back to reading the environment itself.
      baseURL: Option.getOrElse(options.baseUrl, () => "https://api.anthropic.com"),
      timeout: Duration.toMillis(options.timeout),
      maxRetries: 0,
      logger: sdkLogger(runtime, options.model),
      logLevel: "warn"
    }))

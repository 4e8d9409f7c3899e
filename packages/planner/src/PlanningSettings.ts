/** The limits of planning requests, from configuration, turned into per-request settings for a prompt. */
import { type BudgetError, promptBudget } from "@verbatim/domain/Budget"
import type { TokenCounter } from "@verbatim/domain/TokenCounter"
import { Config, Duration, Either } from "effect"
import { type RequestSettings, toolPromptText } from "./BuildRequest.js"
import type { ModelTool } from "./LanguageModel.js"

/** What an operator sets for the model in use. Token figures are in the model's tokens. */
export interface PlanningLimits {
  readonly contextWindow: number
  /** `max_tokens` of a first call. */
  readonly maxTokens: number
  /** `max_tokens` of the one retry of a truncated call; the budget reserves this much for output. */
  readonly truncatedMaxTokens: number
  /** Framing the provider adds to every request. */
  readonly requestOverhead: number
  /** Content tokens each chunk leaves for contacts. */
  readonly contactReserve: number
  readonly maxContacts: number
  readonly timeout: Duration.Duration
}

const tokens = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.withDefault(fallback),
    Config.validate({ message: "must be a non-negative integer", validation: (n) => n >= 0 })
  )

/** `VERBATIM_MODEL_CONTEXT_WINDOW`, `VERBATIM_MODEL_MAX_TOKENS`, `VERBATIM_MODEL_TRUNCATED_MAX_TOKENS`, … */
export const planningLimitsConfig: Config.Config<PlanningLimits> = Config.all({
  contextWindow: tokens("VERBATIM_MODEL_CONTEXT_WINDOW", 200_000),
  maxTokens: tokens("VERBATIM_MODEL_MAX_TOKENS", 8_192),
  truncatedMaxTokens: tokens("VERBATIM_MODEL_TRUNCATED_MAX_TOKENS", 16_384),
  requestOverhead: tokens("VERBATIM_MODEL_REQUEST_OVERHEAD", 512),
  contactReserve: tokens("VERBATIM_PROMPT_CONTACT_RESERVE", 4_000),
  maxContacts: tokens("VERBATIM_PROMPT_MAX_CONTACTS", 200),
  timeout: Config.duration("VERBATIM_MODEL_TIMEOUT").pipe(Config.withDefault(Duration.minutes(2)))
})

/**
 * Request settings for one system prompt. The output reservation is the larger, truncated-retry
 * cap, so that retry never overflows the context window. Fails (at start-up, when called there)
 * when the prompt and tool leave no room for messages.
 */
export const requestSettings = (
  limits: PlanningLimits,
  system: string,
  count: TokenCounter,
  planning: { readonly tool: ModelTool; readonly zone: string | null }
): Either.Either<RequestSettings, BudgetError> =>
  Either.map(
    promptBudget({
      contextWindow: limits.contextWindow,
      outputReservation: Math.max(limits.maxTokens, limits.truncatedMaxTokens),
      toolTokens: count(toolPromptText(planning.tool)),
      requestOverhead: limits.requestOverhead,
      systemTokens: count(system)
    }),
    (budget) => ({
      maxTokens: limits.maxTokens,
      timeout: limits.timeout,
      promptBudget: budget.prompt,
      contentBudget: budget.content,
      contactReserve: limits.contactReserve,
      maxContacts: limits.maxContacts,
      count,
      tool: planning.tool,
      zone: planning.zone
    })
  )

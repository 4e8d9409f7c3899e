/** Budget arithmetic: how many tokens a planning request may spend on its prompt. */
import { Data, Either } from "effect"

/** The numbers a model configuration fixes, all in tokens. */
export interface BudgetInput {
  /** The model's context window: input and output together. */
  readonly contextWindow: number
  /** Tokens kept free for the model's answer (`max_tokens`). */
  readonly outputReservation: number
  /** Tool definitions and the plan schema, which are sent with every request. */
  readonly toolTokens: number
  /** Framing the provider adds to every request (roles, tool-use preamble). */
  readonly requestOverhead: number
  /** The system prompt, which is sent verbatim with every request. */
  readonly systemTokens: number
}

/** What is left, in tokens. */
export interface PromptBudget {
  /** For the whole prompt as `fitPrompt` counts it: system, tools and user content. */
  readonly prompt: number
  /** For user content alone (contacts and messages): what `chunkSession` fills. */
  readonly content: number
}

/**
 * A configuration that leaves no room for user content. Raised at start-up, so a model or
 * prompt change that cannot work is refused before any session is planned.
 */
export class BudgetError extends Data.TaggedError("BudgetError")<{
  readonly reason: "invalid-number" | "no-room"
  readonly input: BudgetInput
  /** Names every number, so the operator sees which one to change. */
  readonly message: string
}> {}

const budgetError = (reason: BudgetError["reason"], input: BudgetInput): BudgetError => {
  const numbers =
    `context window ${input.contextWindow} − output reservation ${input.outputReservation}` +
    ` − tools and schema ${input.toolTokens} − request overhead ${input.requestOverhead}` +
    ` − system prompt ${input.systemTokens}`
  const message = reason === "invalid-number"
    ? `Token budget numbers must be non-negative integers: ${numbers}`
    : `No room left for messages: ${numbers} = ${contentTokens(input)} tokens`
  return new BudgetError({ reason, input, message })
}

const contentTokens = (i: BudgetInput): number =>
  i.contextWindow - i.outputReservation - i.toolTokens - i.requestOverhead - i.systemTokens

const isCount = (n: number): boolean => Number.isSafeInteger(n) && n >= 0

/**
 * context window − output reservation − tool/schema tokens − request overhead, and that minus
 * the system prompt for user content. Fails unless at least one token is left for content,
 * so neither figure is ever negative.
 */
export const promptBudget = (input: BudgetInput): Either.Either<PromptBudget, BudgetError> => {
  const numbers = [input.contextWindow, input.outputReservation, input.toolTokens, input.requestOverhead, input.systemTokens]
  if (!numbers.every(isCount)) return Either.left(budgetError("invalid-number", input))
  const content = contentTokens(input)
  if (content < 1) return Either.left(budgetError("no-room", input))
  return Either.right({ prompt: content + input.toolTokens + input.systemTokens, content })
}

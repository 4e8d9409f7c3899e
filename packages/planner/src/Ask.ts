/**
 * The ask's model call: the `record_answer` tool (a contract fixed like the plan's), the prompts it
 * is asked under (`prompts/ask/<version>.md`), and the request, fitted to its budget by dropping
 * the least relevant messages whole (`fitPrompt`), never cutting one.
 */
import { candidateParts, type SentCandidate } from "@verbatim/domain/Ask/Candidates"
import { AnswerInput } from "@verbatim/domain/Ask/Quotes"
import { fitPrompt, type FitError } from "@verbatim/domain/FitPrompt"
import { toolInputSchema } from "@verbatim/domain/PlanJsonSchema"
import { required } from "@verbatim/domain/PromptPart"
import type { TokenCounter } from "@verbatim/domain/TokenCounter"
import { Config, type ConfigError, Context, Duration, Effect, Either, Layer } from "effect"
import { decodeInput, type LanguageModel, type ModelRequest, type ModelTool, type ToolCall } from "./LanguageModel.js"
import type { LanguageModelError } from "./LanguageModelError.js"
import { packagedPromptDirectory, type PromptError, PromptRegistry } from "./PromptRegistry.js"

/** The one tool an ask's model call answers through. */
export const recordAnswerTool: ModelTool = {
  name: "record_answer",
  description:
    "Record the words of the person's messages that answer their question: each quote copied exactly from the message its ref names. An empty list means nothing answers.",
  inputSchema: toolInputSchema(AnswerInput)
}

/** The ask's prompts, apart from planning's: `prompts/ask/`, version `VERBATIM_ASK_PROMPT_VERSION` (v1 when unset). */
export class AskPrompts extends Context.Tag("@verbatim/planner/AskPrompts")<AskPrompts, PromptRegistry["Type"]>() {
  static readonly layerConfig: Layer.Layer<AskPrompts, ConfigError.ConfigError | PromptError> = Layer.effect(
    AskPrompts,
    Effect.flatMap(
      Config.string("VERBATIM_ASK_PROMPT_VERSION").pipe(Config.withDefault("v1")),
      (defaultVersion) => PromptRegistry.make({ directory: `${packagedPromptDirectory}ask`, defaultVersion })
    )
  )
}

/** How an ask's call is made: tokens it may send and answer with, and how long it may take. */
export interface AskCallSettings {
  readonly budgetTokens: number
  readonly maxTokens: number
  readonly timeout: Duration.Duration
}

export const defaultAskCallSettings: AskCallSettings = { budgetTokens: 24_000, maxTokens: 2_048, timeout: Duration.seconds(45) }

/** The request of an ask, and which candidates it sent and which it left out to fit. */
export interface AskRequest {
  readonly request: ModelRequest
  readonly sent: ReadonlyArray<SentCandidate>
  readonly left: ReadonlyArray<SentCandidate>
}

const questionLine = (question: string) => `The question, as JSON: ${JSON.stringify({ question })}`

/** The user turn: the question, then the messages as JSON lines. */
export const askContent = (question: string, sent: ReadonlyArray<SentCandidate>): string =>
  [questionLine(question), "The messages, one JSON object per line:", ...sent.map((c) => c.line)].join("\n")

/**
 * The request for `question` over `candidates` (in send order, each with its ref), the least
 * relevant dropped whole until it fits `settings.budgetTokens`.
 */
export const askRequest = (
  system: string,
  question: string,
  candidates: ReadonlyArray<SentCandidate>,
  terms: ReadonlyArray<string>,
  settings: AskCallSettings,
  count: TokenCounter
): Either.Either<AskRequest, FitError> => {
  const toolTokens = count(JSON.stringify(recordAnswerTool))
  const fitted = fitPrompt(
    { system, tools: [], messages: [...candidateParts(candidates, terms), required("question", questionLine(question))] },
    settings.budgetTokens - toolTokens - settings.maxTokens,
    count
  )
  return Either.map(fitted, (fit) => {
    const kept = new Set(fit.messages.map((part) => part.key))
    const sent = candidates.filter((c) => kept.has(c.ref))
    return {
      request: { system, tool: recordAnswerTool, userContent: askContent(question, sent), maxTokens: settings.maxTokens, timeout: settings.timeout },
      sent,
      left: candidates.filter((c) => !kept.has(c.ref))
    }
  })
}

const decodeAnswer = decodeInput(AnswerInput)

/** `model`'s call for an ask, its input decoded as a `record_answer`. */
export const answerOf = (model: LanguageModel["Type"]) => (request: ModelRequest): Effect.Effect<ToolCall & { readonly answer: AnswerInput }, LanguageModelError> =>
  Effect.flatMap(model.call(request), (call) => Effect.map(decodeAnswer(call.raw), (answer) => ({ ...call, answer })))

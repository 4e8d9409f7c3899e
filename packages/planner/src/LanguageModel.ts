/**
 * The model call as an injectable service: a request naming one tool in, the tool's input out,
 * undecoded. Each caller decodes the input against its own contract: `plan` for `record_plan`,
 * the ask's `record_answer` for its own.
 */
import type { TokenUsage } from "@verbatim/domain/Events"
import type { Json } from "@verbatim/domain/Json"
import { Plan } from "@verbatim/domain/Plan"
import type { ToolInputSchema } from "@verbatim/domain/PlanJsonSchema"
import { Context, type Duration, Effect, ParseResult, Schema } from "effect"
import { LanguageModelError } from "./LanguageModelError.js"

/** The one tool the model is asked to call. */
export interface ModelTool {
  readonly name: string
  readonly description: string
  readonly inputSchema: ToolInputSchema
}

/** Everything one model call needs; nothing in it depends on which provider serves it. */
export interface ModelRequest {
  readonly system: string
  readonly tool: ModelTool
  /** The single user turn: the request's data, rendered as text. */
  readonly userContent: string
  readonly maxTokens: number
  readonly timeout: Duration.Duration
}

/** A successful call: the tool input exactly as received, with what it cost. */
export interface ToolCall {
  readonly raw: Json
  readonly stopReason: string
  readonly usage: TokenUsage
  readonly model: string
  readonly durationMs: number
}

/** A `record_plan` call decoded: the plan beside the input it came from. */
export interface PlanResult extends ToolCall {
  readonly plan: Plan
}

/** Calls the model once. Retries are not its business: see `Retry.ts` and `Recovery.ts`. */
export class LanguageModel extends Context.Tag("@verbatim/planner/LanguageModel")<
  LanguageModel,
  {
    readonly call: (request: ModelRequest) => Effect.Effect<ToolCall, LanguageModelError>
  }
>() {}

/** A tool input that does not decode against `schema`: a `decode` error, retried like any other fault of the model. */
export const decodeInput = <A, I>(schema: Schema.Schema<A, I>) => (raw: Json): Effect.Effect<A, LanguageModelError> =>
  Schema.decodeUnknown(schema)(raw).pipe(
    Effect.mapError((error) =>
      new LanguageModelError({ reason: "decode", message: ParseResult.TreeFormatter.formatErrorSync(error), cause: error })
    )
  )

const decodePlan = decodeInput(Plan)

/** `model`'s call for a planning request, its input decoded as a plan. */
export const planOf = (model: LanguageModel["Type"]) => (request: ModelRequest): Effect.Effect<PlanResult, LanguageModelError> =>
  Effect.flatMap(model.call(request), (call) => Effect.map(decodePlan(call.raw), (plan) => ({ ...call, plan })))

/** The model call as an injectable service: a planning request in, a decoded plan out. */
import type { TokenUsage } from "@verbatim/domain/Events"
import type { Json } from "@verbatim/domain/Json"
import type { Plan } from "@verbatim/domain/Plan"
import type { ToolInputSchema } from "@verbatim/domain/PlanJsonSchema"
import { Context, type Duration, type Effect } from "effect"
import type { LanguageModelError } from "./LanguageModelError.js"

/** The one tool the model is forced to call. */
export interface PlanningTool {
  readonly name: string
  readonly description: string
  readonly inputSchema: ToolInputSchema
}

/** Everything one model call needs; nothing in it depends on which provider serves it. */
export interface PlanningRequest {
  readonly system: string
  readonly tool: PlanningTool
  /** The single user turn: contacts and messages, rendered as data. */
  readonly userContent: string
  readonly maxTokens: number
  readonly timeout: Duration.Duration
}

/** A successful call: the decoded plan plus the tool input exactly as received, for the record. */
export interface PlanResult {
  readonly plan: Plan
  readonly raw: Json
  readonly stopReason: string
  readonly usage: TokenUsage
  readonly model: string
  readonly durationMs: number
}

/** Plans one request. Retries are not its business: see `Retry.ts` and `Recovery.ts`. */
export class LanguageModel extends Context.Tag("@verbatim/planner/LanguageModel")<
  LanguageModel,
  {
    readonly plan: (request: PlanningRequest) => Effect.Effect<PlanResult, LanguageModelError>
  }
>() {}

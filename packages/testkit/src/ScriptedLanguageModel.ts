/** A `LanguageModel` that answers from a queue of tool inputs and errors and records every request it saw. */
import type { TokenUsage } from "@verbatim/domain/Events"
import type { Json } from "@verbatim/domain/Json"
import type { Plan } from "@verbatim/domain/Plan"
import { LanguageModel, type ModelRequest, type ToolCall } from "@verbatim/planner/LanguageModel"
import type { LanguageModelError } from "@verbatim/planner/LanguageModelError"
import { Context, Effect, Layer, Ref } from "effect"

/** One scripted answer: a tool's input (with its usage), or an error. */
export type ScriptStep =
  | { readonly _tag: "Call"; readonly raw: Json; readonly usage?: TokenUsage }
  | LanguageModelError

/** A `record_plan` call with this plan as its input. */
export const planStep = (plan: Plan, options: { readonly usage?: TokenUsage } = {}): ScriptStep => ({
  _tag: "Call",
  raw: plan as unknown as Json,
  ...options
})

/** A call with this input, whichever tool was asked for (a `record_answer`, or an input that should not decode). */
export const callStep = (raw: Json, options: { readonly usage?: TokenUsage } = {}): ScriptStep => ({ _tag: "Call", raw, ...options })

const zeroUsage: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }

/** Access to the script: the requests seen so far, and more steps to answer with. */
export class ScriptedLanguageModel extends Context.Tag("@verbatim/testkit/ScriptedLanguageModel")<
  ScriptedLanguageModel,
  {
    readonly requests: Effect.Effect<ReadonlyArray<ModelRequest>>
    readonly push: (...steps: ReadonlyArray<ScriptStep>) => Effect.Effect<void>
  }
>() {
  /** A call past the end of the script dies: the test forgot a step, and guessing would hide it. */
  static readonly layer = (
    steps: ReadonlyArray<ScriptStep>
  ): Layer.Layer<LanguageModel | ScriptedLanguageModel> =>
    Layer.effectContext(
      Effect.gen(function*() {
        const queue = yield* Ref.make<ReadonlyArray<ScriptStep>>(steps)
        const seen = yield* Ref.make<ReadonlyArray<ModelRequest>>([])
        const call = (request: ModelRequest): Effect.Effect<ToolCall, LanguageModelError> =>
          Effect.gen(function*() {
            const index = (yield* Ref.getAndUpdate(seen, (all) => [...all, request])).length
            const step = yield* Ref.modify(queue, ([head, ...rest]) => [head, rest])
            if (step === undefined) return yield* Effect.dieMessage(`ScriptedLanguageModel: no step left for call ${index + 1}`)
            if (step._tag === "LanguageModelError") return yield* step
            return {
              raw: step.raw,
              stopReason: "tool_use",
              usage: step.usage ?? zeroUsage,
              model: "scripted",
              durationMs: 0
            }
          })
        return Context.make(LanguageModel, LanguageModel.of({ call })).pipe(
          Context.add(
            ScriptedLanguageModel,
            ScriptedLanguageModel.of({
              requests: Ref.get(seen),
              push: (...more) => Ref.update(queue, (rest) => [...rest, ...more])
            })
          )
        )
      })
    )

  /** The requests seen so far, in order. */
  static readonly requests: Effect.Effect<ReadonlyArray<ModelRequest>, never, ScriptedLanguageModel> = Effect
    .flatMap(ScriptedLanguageModel, (scripted) => scripted.requests)
}

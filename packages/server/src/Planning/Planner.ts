/**
 * The planner as configuration chooses it, for `serve` and the CLI alike: recorded answers when
 * `VERBATIM_CASSETTE_DIR` is set, else Anthropic when `ANTHROPIC_API_KEY` is, else no model (the
 * plan job then leaves sessions unplanned); `replay --batch` uses Anthropic's Message Batches
 * API instead (`batchLayerConfig`). Every model call is timed and its tokens counted; the
 * plan job reports its own runs (`PlanJobReport`).
 */
import * as AnthropicBatchLanguageModel from "@verbatim/planner/AnthropicBatchLanguageModel"
import * as AnthropicLanguageModel from "@verbatim/planner/AnthropicLanguageModel"
import type { BatchRounds, BatchStateError } from "@verbatim/planner/BatchRounds"
import { TimeZones } from "../TimeZones.js"
import { LanguageModel } from "@verbatim/planner/LanguageModel"
import { PromptRegistry } from "@verbatim/planner/PromptRegistry"
import { RecordedLanguageModel } from "@verbatim/planner/RecordedLanguageModel"
import { Tokenizer } from "@verbatim/planner/Tokenizer"
import { Config, type ConfigError, Data, Effect, Either, Layer, Option } from "effect"
import * as Metrics from "../Metrics.js"
import { PlanJob } from "./PlanJob.js"
import { PlanningConfig } from "@verbatim/planner/Planning"

/** Where plans come from. */
export type ModelSource = Data.TaggedEnum<{
  Recorded: { readonly directory: string }
  Anthropic: { readonly options: AnthropicLanguageModel.AnthropicOptions }
  None: {}
}>
const ModelSource = Data.taggedEnum<ModelSource>()

/**
 * `VERBATIM_CASSETTE_DIR` (recorded answers), else `ANTHROPIC_API_KEY` with the Anthropic
 * settings (`model`, when given, overrides `VERBATIM_MODEL`), else none.
 */
export const modelSource = Effect.fn("Planner.modelSource")(function*(model: Option.Option<string> = Option.none()) {
  const cassettes = yield* Config.option(Config.string("VERBATIM_CASSETTE_DIR"))
  if (Option.isSome(cassettes)) return ModelSource.Recorded({ directory: cassettes.value })
  if (Option.isNone(yield* Config.option(Config.redacted("ANTHROPIC_API_KEY")))) return ModelSource.None()
  const options = yield* AnthropicLanguageModel.anthropicConfig
  return ModelSource.Anthropic({ options: Option.match(model, { onNone: () => options, onSome: (m) => ({ ...options, model: m }) }) })
})

/** Planning was asked for with no model configured. */
export class NoModelError extends Data.TaggedError("NoModelError")<{ readonly message: string }> {}

const noModel = new NoModelError({
  message: "no model configured: set ANTHROPIC_API_KEY (or VERBATIM_CASSETTE_DIR for recorded answers)"
})

/** A model timing every call (by outcome: `ok` or the error's reason) and counting the tokens of those it answers. */
export const meter = (inner: LanguageModel["Type"]): LanguageModel["Type"] =>
  LanguageModel.of({
    call: (request) =>
      Effect.timed(Effect.either(inner.call(request))).pipe(
        Effect.tap(([elapsed, result]) =>
          Either.match(result, {
            onLeft: (error) => Metrics.modelCall(error.reason, elapsed),
            onRight: (answer) => Effect.zipRight(Metrics.modelCall("ok", elapsed), Metrics.modelTokens(answer.usage))
          })
        ),
        Effect.flatMap(([, result]) => result)
      )
  })

/** `model` with every call metered (`meter`). */
const metered = <E, R>(model: Layer.Layer<LanguageModel, E, R>): Layer.Layer<LanguageModel, E, R> =>
  Layer.effect(LanguageModel, Effect.map(LanguageModel, meter)).pipe(Layer.provide(model))

/**
 * Everything `planSession` needs around a given model: the prompt registry
 * (`VERBATIM_PROMPT_DIR`, `VERBATIM_PROMPT_VERSION`), the tokenizer and the planning settings.
 */
export const layer = <E, R>(model: Layer.Layer<LanguageModel, E, R>) =>
  Layer.mergeAll(metered(model), PromptRegistry.layerConfig, Tokenizer.layer, PlanningConfig.layerConfig)

/** The model a configured source names. */
export const modelLayer = (source: Exclude<ModelSource, { readonly _tag: "None" }>): Layer.Layer<LanguageModel> =>
  source._tag === "Recorded" ? RecordedLanguageModel.layer(source.directory) : AnthropicLanguageModel.layer(source.options)

type PlannerLayer = ReturnType<typeof layer<never, never>>

const configured = (source: ModelSource): Layer.Layer<
  Layer.Layer.Success<PlannerLayer>,
  Layer.Layer.Error<PlannerLayer> | NoModelError
> => source._tag === "None" ? Layer.fail(noModel) : layer(modelLayer(source))

/** The configured planner; no model configured fails the layer with `NoModelError`. */
export const layerConfig = (model: Option.Option<string> = Option.none()) =>
  Layer.unwrapEffect(Effect.map(modelSource(model), configured))

/**
 * The planner on Message Batches (`--batch`), its batches kept in `stateFile`; it needs the
 * Anthropic settings (recorded answers have no batches). Both `LanguageModel` and `BatchRounds`.
 */
export const batchLayerConfig = (stateFile: string, model: Option.Option<string> = Option.none()) => {
  const batch: Layer.Layer<LanguageModel | BatchRounds, NoModelError | BatchStateError | ConfigError.ConfigError> = Layer.unwrapEffect(Effect.gen(function*() {
    const source = yield* modelSource(model)
    if (source._tag !== "Anthropic") {
      return Layer.fail<NoModelError | BatchStateError>(new NoModelError({ message: "--batch calls Anthropic's Message Batches API: set ANTHROPIC_API_KEY (and not VERBATIM_CASSETTE_DIR)" }))
    }
    const options = yield* AnthropicBatchLanguageModel.batchConfig(stateFile)
    return AnthropicBatchLanguageModel.layer({ ...options, anthropic: source.options })
  }))
  return Layer.merge(layer(batch), batch)
}

const jobOver = (source: Exclude<ModelSource, { readonly _tag: "None" }>) =>
  PlanJob.layer.pipe(Layer.provide(Layer.merge(layer(modelLayer(source)), TimeZones.layerConfig)))

/** The plan job over the configured planner; with no model configured, sessions wait unplanned (`PlanJob.layerNoModel`). */
export const planJobLayerConfig = Layer.unwrapEffect(Effect.map(modelSource(), (source): ReturnType<typeof jobOver> =>
  source._tag === "None" ? PlanJob.layerNoModel : jobOver(source)))

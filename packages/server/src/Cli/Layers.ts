/**
 * The services the CLI's commands run on: the configured store for every command, and for the
 * commands that plan (retry, replay) a model and the prompt registry. `VERBATIM_CASSETTE_DIR`
 * swaps the model for recorded answers (the demo, tests); `VERBATIM_PROMPT_DIR` reads prompt
 * versions from another folder than the packaged one.
 */
import * as AnthropicLanguageModel from "@verbatim/planner/AnthropicLanguageModel"
import { packagedPromptDirectory, PromptRegistry } from "@verbatim/planner/PromptRegistry"
import { Tokenizer } from "@verbatim/planner/Tokenizer"
import * as Store from "@verbatim/projections/Store"
import { RecordedLanguageModel } from "@verbatim/testkit/RecordedLanguageModel"
import { Config, Effect, Layer, Option } from "effect"
import { IdGenerator } from "../IdGenerator.js"
import { PlanJob } from "../PlanJob.js"
import { PlanningConfig } from "../Planning.js"
import { CliError } from "./CliError.js"

/** Store, read model and SQL client, as configured (SQLite under ./data by default). */
export const StoreLayer = Store.layerConfig

const cassetteDir = Config.option(Config.string("VERBATIM_CASSETTE_DIR"))
const anthropicKey = Config.option(Config.redacted("ANTHROPIC_API_KEY"))

/** The model: recorded answers, or Anthropic (`model` overrides `VERBATIM_MODEL`); neither set is an error saying so. */
export const modelLayer = (model: Option.Option<string>) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const cassettes = yield* cassetteDir
    if (Option.isSome(cassettes)) return RecordedLanguageModel.layer(cassettes.value)
    if (Option.isNone(yield* anthropicKey)) {
      return yield* new CliError({
        message: "no model configured: set ANTHROPIC_API_KEY (or VERBATIM_CASSETTE_DIR for recorded answers)"
      })
    }
    const options = yield* AnthropicLanguageModel.anthropicConfig
    return AnthropicLanguageModel.layer(Option.match(model, { onNone: () => options, onSome: (m) => ({ ...options, model: m }) }))
  }))

/** Prompt versions from `VERBATIM_PROMPT_DIR` or the packaged folder; default `VERBATIM_PROMPT_VERSION` (v1). */
export const PromptLayer = Layer.unwrapEffect(Effect.gen(function*() {
  const directory = yield* Config.string("VERBATIM_PROMPT_DIR").pipe(Config.withDefault(packagedPromptDirectory))
  const defaultVersion = yield* Config.string("VERBATIM_PROMPT_VERSION").pipe(Config.withDefault("v1"))
  return PromptRegistry.layer({ directory, defaultVersion })
}))

/** Everything `planSession` needs. */
export const plannerLayer = (model: Option.Option<string>) =>
  Layer.mergeAll(modelLayer(model), PromptLayer, Tokenizer.layer, PlanningConfig.layerConfig)

/** The plan job over the configured store and model, with its ids. */
export const PlanJobLayer = PlanJob.layer.pipe(
  Layer.provide(plannerLayer(Option.none())),
  Layer.provideMerge(IdGenerator.layer),
  Layer.provideMerge(StoreLayer)
)

/**
 * Answering questions with the model configuration chooses (`Planner.modelSource`): recorded
 * answers, Anthropic, or none, when every question is recorded and told there is no model.
 */
import { AskPrompts } from "@verbatim/planner/Ask"
import { Effect, Layer } from "effect"
import * as Planner from "../Planning/Planner.js"
import { Asking } from "./Asking.js"

export const askingLayerConfig = Layer.unwrapEffect(Effect.map(Planner.modelSource(), (source) =>
  source._tag === "None"
    ? Asking.layerNoModel
    : Asking.layer.pipe(Layer.provide(Layer.merge(Planner.layer(Planner.modelLayer(source)), AskPrompts.layerConfig)))))

/**
 * `verbatim eval [--prompt VERSION] [--live] [--record] [--cassettes DIR]` (`npm run eval`): the
 * shipped evaluation set scored under a prompt, offline from its recorded answers; exits 1 on
 * FAIL. `--live` asks the real model (ANTHROPIC_API_KEY) and records its answers as cassettes;
 * `--record` writes each case's authored answer as the cassette of the prompt, as `demo --record` does.
 */
import { Command, Options } from "@effect/cli"
import * as AnthropicLanguageModel from "@verbatim/planner/AnthropicLanguageModel"
import { type EvalCase, evalSetDirectory, load } from "@verbatim/planner/EvalSet"
import { LanguageModel } from "@verbatim/planner/LanguageModel"
import { PromptRegistry } from "@verbatim/planner/PromptRegistry"
import { RecordedLanguageModel } from "@verbatim/planner/RecordedLanguageModel"
import { Console, Effect, Layer, Option } from "effect"
import { join } from "node:path"
import { evalVerdict, renderEval, runCase } from "../Eval/RunEval.js"
import * as Planner from "../Planning/Planner.js"
import { CliError } from "./CliError.js"

const options = {
  prompt: Options.text("prompt").pipe(Options.withDescription("The prompt version to score (default: the configured one)"), Options.optional),
  live: Options.boolean("live").pipe(Options.withDescription("Ask the real model (ANTHROPIC_API_KEY) and record its answers")),
  record: Options.boolean("record").pipe(Options.withDescription("Write each case's authored answer as this prompt's cassette")),
  cassettes: Options.directory("cassettes").pipe(
    Options.withDescription("Where the recorded answers are (default: the evaluation set's cassettes/)"),
    Options.optional
  )
}

/** Answers every request with the case's authored answer, as the model would. */
export const authored = (evalCase: EvalCase) =>
  Layer.succeed(LanguageModel, LanguageModel.of({
    call: () =>
      Effect.succeed({
        raw: evalCase.recorded,
        stopReason: "tool_use",
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
        model: AnthropicLanguageModel.defaultModel,
        durationMs: 0
      })
  }))

export const command = Command.make("eval", options, (args) =>
  Effect.gen(function*() {
    const cassettes = Option.getOrElse(args.cassettes, () => join(evalSetDirectory, "cassettes"))
    const { cases } = yield* Effect.mapError(load(), (e) => new CliError({ message: e.message }))
    const model = (evalCase: EvalCase): Layer.Layer<LanguageModel> =>
      args.record
        ? RecordedLanguageModel.layerRecording(cassettes).pipe(Layer.provide(authored(evalCase)))
        : args.live
        ? RecordedLanguageModel.layerRecording(cassettes).pipe(Layer.provide(AnthropicLanguageModel.layerConfig), Layer.orDie)
        : RecordedLanguageModel.layer(cassettes)
    const version = yield* Option.match(args.prompt, {
      onSome: Effect.succeed,
      onNone: () => Effect.map(PromptRegistry, (r) => r.current.version).pipe(Effect.provide(PromptRegistry.layerConfig))
    })
    const results = yield* Effect.forEach(cases, (evalCase) => runCase(evalCase, version).pipe(Effect.provide(Planner.layer(model(evalCase)))))
    const verdict = evalVerdict(results)
    yield* Console.log(renderEval(version, results, verdict))
    if (verdict.verdict === "FAIL") return yield* new CliError({ message: `eval failed under prompt ${version}: ${verdict.reasons.join("; ")}` })
  })).pipe(Command.withDescription("Score a prompt on the shipped evaluation set, offline from recorded answers (--live: the real model)"))

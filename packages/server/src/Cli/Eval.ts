/**
 * `verbatim eval [--prompt VERSION] [--asks] [--live] [--record] [--cassettes DIR]` (`npm run eval`):
 * the shipped evaluation set scored under a prompt, offline from its recorded answers; exits 1 on
 * FAIL. `--asks` scores the ask prompt on the ask set instead. `--live` asks the real model (ANTHROPIC_API_KEY) and records its answers as cassettes;
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
import { askEvalVerdict, authoredAnswer, notebook, renderAskEval, runAskCase } from "../Eval/RunAskEval.js"
import type { SentCandidate } from "@verbatim/domain/Ask/Candidates"
import type { Json } from "@verbatim/domain/Json"
import { AskPrompts } from "@verbatim/planner/Ask"
import { type AskEvalCase, loadAsks } from "@verbatim/planner/AskEvalSet"
import { Tokenizer } from "@verbatim/planner/Tokenizer"
import * as Planner from "../Planning/Planner.js"
import { CliError } from "./CliError.js"

const options = {
  prompt: Options.text("prompt").pipe(Options.withDescription("The prompt version to score (default: the configured one)"), Options.optional),
  live: Options.boolean("live").pipe(Options.withDescription("Ask the real model (ANTHROPIC_API_KEY) and record its answers")),
  record: Options.boolean("record").pipe(Options.withDescription("Write each case's authored answer as this prompt's cassette")),
  asks: Options.boolean("asks").pipe(Options.withDescription("Score the ask prompt on the ask set (eval/asks.json) instead of the plan prompt")),
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

/** Answers an ask's request with the question's recorded answer, by the request's refs. */
const authoredAsk = (ask: AskEvalCase, sent: ReadonlyArray<SentCandidate>) =>
  Layer.succeed(LanguageModel, LanguageModel.of({
    call: () =>
      Effect.succeed({
        raw: authoredAnswer(ask, sent) as unknown as Json,
        stopReason: "tool_use",
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
        model: AnthropicLanguageModel.defaultModel,
        durationMs: 0
      })
  }))

/** `eval --asks`: the ask set under the configured ask prompt. */
const askEval = (args: { readonly live: boolean; readonly record: boolean }, cassettes: string, cases: ReadonlyArray<EvalCase>) =>
  Effect.gen(function*() {
    const { asks } = yield* Effect.mapError(loadAsks(), (e) => new CliError({ message: e.message }))
    const prompt = (yield* AskPrompts).current
    const sent = notebook(cases)
    const model = (ask: AskEvalCase): Layer.Layer<LanguageModel> =>
      args.record
        ? RecordedLanguageModel.layerRecording(cassettes).pipe(Layer.provide(authoredAsk(ask, sent)))
        : args.live
        ? RecordedLanguageModel.layerRecording(cassettes).pipe(Layer.provide(AnthropicLanguageModel.layerConfig), Layer.orDie)
        : RecordedLanguageModel.layer(cassettes)
    const results = yield* Effect.forEach(asks, (ask) => runAskCase(ask, sent, prompt).pipe(Effect.provide(Layer.merge(model(ask), Tokenizer.layer))))
    const verdict = askEvalVerdict(results)
    yield* Console.log(renderAskEval(prompt.version, results, verdict))
    if (verdict.verdict === "FAIL") return yield* new CliError({ message: `ask eval failed under ask prompt ${prompt.version}: ${verdict.reasons.join("; ")}` })
  }).pipe(Effect.provide(AskPrompts.layerConfig))

export const command = Command.make("eval", options, (args) =>
  Effect.gen(function*() {
    const cassettes = Option.getOrElse(args.cassettes, () => join(evalSetDirectory, "cassettes"))
    const { cases } = yield* Effect.mapError(load(), (e) => new CliError({ message: e.message }))
    if (args.asks) return yield* askEval(args, cassettes, cases)
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

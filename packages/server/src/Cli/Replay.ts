/**
 * `verbatim replay --prompt VERSION [--model NAME] [--session ID …] [--since DATE]
 * [--format text|json|markdown|junit] [--repeat K] [--noise-floor SHARE] [--noise-floor-from AA.json]
 * [--aa] [--batch [--batch-state FILE]] [--fail-on-regression] [--publish] [--promote]`:
 * re-plan recorded sessions in the shadow, score them against their users' own outcome and report
 * what would change, with the tokens, their cost and the time spent in model calls (live plans do
 * not record theirs: "unknown").
 *
 * `--batch` sends the candidate's calls through Anthropic's Message Batches API at half the list
 * price: every session is replayed at once, so their first calls make one batch (follow-up calls
 * the next); the report prices them at the batch rate and times them by the batches' wall time.
 * The batches are kept in `--batch-state` (default `replay-batches.json` in `VERBATIM_DATA_DIR`)
 * until the replay has finished, so a replay stopped half-way and run again with the same
 * arguments polls the batches it already paid for. `--aa` plans the live prompt (`--prompt`, or
 * the configured one) against itself, reusing nothing: the live plans and each of the `--repeat`
 * runs are compared with the first, and the share that moved is the noise floor, written to the
 * JSON report for `--noise-floor-from`. `--publish` keeps the report where the web pages show it
 * (`/replays`). `--promote` then plans each changed session again and prints what would become
 * of its users' corrections; `--promote --yes` records those plans, superseding the live ones,
 * with every correction carried over or asked. `verbatim replay compare A.json B.json` compares two saved
 * JSON reports. `verbatim replay asks [--prompt VERSION] [--model NAME] [--user ID]` asks recorded
 * questions again under an ask prompt, in the shadow.
 */
import { Args, Command, Options } from "@effect/cli"
import { PromptRegistry } from "@verbatim/planner/PromptRegistry"
import { ReplayReports } from "@verbatim/projections/ReplayReports"
import * as Store from "@verbatim/projections/Store"
import { Clock, Config, Console, DateTime, Effect, Layer, Option, Schema } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { IdGenerator } from "../IdGenerator.js"
import { PlanJob } from "../Planning/PlanJob.js"
import { PlanningHold } from "../Planning/PlanningHold.js"
import * as Planner from "../Planning/Planner.js"
import * as Progress from "../Progress.js"
import { replay, selectSessions } from "../Replay.js"
import { recordedAsks, renderAskReplay, replayAsk } from "../Replay/ReplayAsks.js"
import { AskPrompts } from "@verbatim/planner/Ask"
import { renderComparison, SavedReport } from "../Replay/Compare.js"
import { gate } from "../Replay/Gate.js"
import { renderJunit } from "../Replay/Junit.js"
import { renderMarkdown } from "../Replay/Markdown.js"
import { renderJson, renderText, summarise } from "../Replay/Report.js"
import { runInfo } from "../Replay/Run.js"
import { CliError } from "./CliError.js"
import { promote } from "./Promote.js"
import { batchPlannerLayer, plannerLayer } from "./Layers.js"
import { TimeZones } from "../TimeZones.js"

const options = {
  // Optional so that `replay compare` parses without it; a replay requires it unless `--aa` (the configured prompt).
  prompt: Options.text("prompt").pipe(Options.withDescription("The prompt version to plan under (a prompts/<version>.md)"), Options.optional),
  model: Options.text("model").pipe(Options.withDescription("Model name instead of VERBATIM_MODEL"), Options.optional),
  session: Options.text("session").pipe(Options.withDescription("Only this session (repeatable)"), Options.repeated),
  since: Options.date("since").pipe(Options.withDescription("Only sessions opened at or after this date"), Options.optional),
  json: Options.boolean("json").pipe(Options.withDescription("Print the report as JSON (same as --format json)")),
  format: Options.choice("format", ["text", "json", "markdown", "junit"]).pipe(
    Options.withDescription("The report's format: text, JSON (what `replay compare` reads), Markdown for a pull request, JUnit XML"),
    Options.withDefault("text" as const)
  ),
  repeat: Options.integer("repeat").pipe(
    Options.withDescription("Plan each session this many times: how often the prompt agrees with itself is the noise floor"),
    Options.withDefault(1)
  ),
  noiseFloor: Options.float("noise-floor").pipe(
    Options.withDescription("The least share of disagreement to treat as noise (0 to 1), e.g. from an A/A run"),
    Options.withDefault(0)
  ),
  noiseFloorFrom: Options.file("noise-floor-from", { exists: "yes" }).pipe(
    Options.withDescription("Take the noise floor from a JSON report of `replay --aa` (the larger of it and --noise-floor)"),
    Options.optional
  ),
  aa: Options.boolean("aa").pipe(
    Options.withDescription("A/A: plan the live prompt against itself, reusing nothing, to measure the noise floor")
  ),
  batch: Options.boolean("batch").pipe(
    Options.withDescription("Send the candidate's calls through the Message Batches API (half price; takes minutes to hours)")
  ),
  batchState: Options.file("batch-state").pipe(
    Options.withDescription("Where --batch keeps its batches until the replay finishes (default replay-batches.json in VERBATIM_DATA_DIR)"),
    Options.optional
  ),
  publish: Options.boolean("publish").pipe(Options.withDescription("Keep the report for the web pages, at /replays")),
  failOnRegression: Options.boolean("fail-on-regression").pipe(
    Options.withDescription("Exit 1 when agreement with the users' outcome falls beyond the noise floor or an invariant breaks")
  ),
  promote: Options.boolean("promote").pipe(
    Options.withDescription("Plan the changed sessions again, carrying their users' corrections; prints what would change unless --yes")
  ),
  yes: Options.boolean("yes").pipe(Options.withDescription("With --promote: record the new plans"))
}

/** Keep the report for the web pages, under an id of its own. */
const publish = (promptVersion: string, body: string) =>
  Effect.gen(function*() {
    const id = yield* Effect.flatMap(IdGenerator, (g) => g.next("replay"))
    yield* (yield* ReplayReports).publish({ id, createdAt: yield* Clock.currentTimeMillis, promptVersion, body })
    yield* Console.log(`report kept for the web pages: /replays/${id}`)
  })

const readReport = (file: string) =>
  Effect.try({ try: () => JSON.parse(readFileSync(file, "utf8")) as unknown, catch: (e) => new CliError({ message: `cannot read ${file}: ${String(e)}` }) }).pipe(
    Effect.flatMap(Schema.decodeUnknown(SavedReport)),
    Effect.mapError((e) => e._tag === "CliError" ? e : new CliError({ message: `${file} is not a JSON replay report; write one with replay --format json` }))
  )

const compare = Command.make("compare", { a: Args.file({ name: "A.json", exists: "yes" }), b: Args.file({ name: "B.json", exists: "yes" }) }, ({ a, b }) =>
  Effect.gen(function*() {
    yield* Console.log(renderComparison(yield* readReport(a), yield* readReport(b)))
  })).pipe(Command.withDescription("Compare two saved JSON replay reports: their inputs, agreement and the sessions scored differently"))

/** The noise floor an A/A report measured. */
const floorFrom = (file: Option.Option<string>) =>
  Option.match(file, {
    onNone: () => Effect.succeed(0),
    onSome: (path) =>
      Effect.filterOrFail(
        readReport(path),
        (report) => report.run.mode === "aa",
        () => new CliError({ message: `${path} is not an A/A report; write one with replay --aa --format json` })
      ).pipe(Effect.map((report) => report.gate.noiseFloor))
  })

/** The planner: one call at a time, or on Message Batches with its state file. */
const plannerFor = (args: { readonly model: Option.Option<string>; readonly batch: boolean; readonly batchState: Option.Option<string> }) =>
  !args.batch ? plannerLayer(args.model) : Layer.unwrapEffect(Effect.map(
    Option.match(args.batchState, {
      onSome: Effect.succeed,
      onNone: () => Effect.map(Config.string("VERBATIM_DATA_DIR").pipe(Config.withDefault("./data")), (dir) => join(dir, "replay-batches.json"))
    }),
    (file) => batchPlannerLayer(file, args.model)
  ))

const replayCommand = Command.make("replay", options, ({ prompt: promptOption, ...rest }) =>
  Effect.gen(function*() {
    const registry = yield* PromptRegistry
    if (Option.isNone(promptOption) && !rest.aa) {
      return yield* new CliError({ message: "--prompt VERSION is required (or: replay --aa, replay compare A.json B.json)" })
    }
    const args = { ...rest, prompt: Option.getOrElse(promptOption, () => registry.current.version) }
    const prompt = yield* Effect.mapError(registry.load(args.prompt), (e) =>
      new CliError({ message: `${e.message}; add prompts/${args.prompt}.md or point VERBATIM_PROMPT_DIR at its folder` }))
    if (args.repeat < 1) return yield* new CliError({ message: "--repeat must be 1 or more" })
    const since = Option.map(args.since, DateTime.unsafeFromDate)
    const selected = yield* selectSessions({ sessions: args.session, since })
    const progress = yield* Progress.start("replay", selected.length)
    const source = yield* Planner.modelSource(args.model)
    const reuse = { promptHash: prompt.hash, model: source._tag === "Anthropic" ? source.options.model : null }
    const floor = Math.max(args.noiseFloor, yield* floorFrom(args.noiseFloorFrom))
    const results = yield* replay(selected, { promptVersion: args.prompt, repeat: args.repeat, reuse, aa: args.aa }, progress)
    const summary = summarise(args.prompt, results)
    const mode = args.aa ? "aa" : "candidate"
    const run = runInfo(prompt, args.repeat, results, mode)
    const verdict = gate(results, floor)
    const format = args.json ? "json" : args.format
    yield* Console.log(
      format === "json" ? renderJson(run, summary, verdict, results)
      : format === "markdown" ? renderMarkdown(run, summary, verdict, results)
      : format === "junit" ? renderJunit(run, verdict, results)
      : renderText(summary, verdict, results, mode)
    )
    if (args.publish) yield* publish(args.prompt, renderJson(run, summary, verdict, results))
    if (args.promote) yield* promote(results.filter((r) => r.status === "changed").map((r) => r.sessionId), args.prompt, args.yes)
    if (args.failOnRegression && verdict.verdict === "FAIL") {
      return yield* new CliError({ message: `regression under prompt ${args.prompt}: ${verdict.reasons.join("; ")}` })
    }
  }).pipe(
    Effect.scoped,
    Effect.provide(PlanJob.layer.pipe(
      Layer.provideMerge(Layer.mergeAll(plannerFor(rest), PlanningHold.layer, TimeZones.layerConfig)),
      Layer.provideMerge(IdGenerator.layer),
      Layer.provideMerge(Store.layerConfig)
    ))
  )).pipe(Command.withDescription("Re-plan recorded sessions under another prompt version, score them against the users' own outcome and report the differences"))

const asks = Command.make("asks", {
  prompt: Options.text("prompt").pipe(Options.withDescription("The ask prompt version to ask under (a prompts/ask/<version>.md; default the configured one)"), Options.optional),
  model: Options.text("model").pipe(Options.withDescription("Model name instead of VERBATIM_MODEL"), Options.optional),
  user: Options.text("user").pipe(Options.withDescription("Only this user's questions"), Options.optional)
}, (args) =>
  Effect.gen(function*() {
    const registry = yield* AskPrompts
    const version = Option.getOrElse(args.prompt, () => registry.current.version)
    const prompt = yield* Effect.mapError(registry.load(version), (e) =>
      new CliError({ message: `${e.message}; add prompts/ask/${version}.md` }))
    const recorded = yield* recordedAsks(Option.getOrNull(args.user))
    const results = yield* Effect.forEach(recorded, (ask) => replayAsk(ask, prompt))
    yield* Console.log(renderAskReplay(version, results))
  }).pipe(
    Effect.provide(Layer.mergeAll(plannerLayer(args.model), AskPrompts.layerConfig, TimeZones.layerConfig).pipe(Layer.provideMerge(Store.layerConfig)))
  )).pipe(Command.withDescription("Ask recorded questions again under another ask prompt or model, in the shadow: which answers change, and what the model gave that is not the asker's words"))

export const command = replayCommand.pipe(Command.withSubcommands([compare, asks]))

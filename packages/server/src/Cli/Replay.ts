/**
 * `verbatim replay --prompt VERSION [--model NAME] [--session ID …] [--since DATE] [--json] [--publish] [--promote]`:
 * re-plan recorded sessions in the shadow and report what would change. `--publish` keeps the
 * report where the web pages show it (`/replays`). `--promote` then runs the plan job again for
 * each changed session, appending plans that supersede the live ones.
 */
import { Command, Options } from "@effect/cli"
import type { SessionId } from "@verbatim/domain/Ids"
import { PromptRegistry } from "@verbatim/planner/PromptRegistry"
import { ReplayReports } from "@verbatim/projections/ReplayReports"
import { Clock, Console, DateTime, Effect, Layer, Option } from "effect"
import { IdGenerator } from "../IdGenerator.js"
import { PlanJob } from "../PlanJob.js"
import { PlanningHold } from "../PlanningHold.js"
import * as Progress from "../Progress.js"
import { replay, selectSessions } from "../Replay.js"
import { renderJson, renderText, summarise } from "../Replay/Report.js"
import { CliError } from "./CliError.js"
import { plannerLayer, StoreLayer } from "./Layers.js"

const options = {
  prompt: Options.text("prompt").pipe(Options.withDescription("The prompt version to plan under (a prompts/<version>.md)")),
  model: Options.text("model").pipe(Options.withDescription("Model name instead of VERBATIM_MODEL"), Options.optional),
  session: Options.text("session").pipe(Options.withDescription("Only this session (repeatable)"), Options.repeated),
  since: Options.date("since").pipe(Options.withDescription("Only sessions opened at or after this date"), Options.optional),
  json: Options.boolean("json").pipe(Options.withDescription("Print the report as JSON")),
  publish: Options.boolean("publish").pipe(Options.withDescription("Keep the report for the web pages, at /replays")),
  promote: Options.boolean("promote").pipe(Options.withDescription("Record the new plans for changed sessions"))
}

/** Keep the report for the web pages, under an id of its own. */
const publish = (promptVersion: string, body: string) =>
  Effect.gen(function*() {
    const id = yield* Effect.flatMap(IdGenerator, (g) => g.next("replay"))
    yield* (yield* ReplayReports).publish({ id, createdAt: yield* Clock.currentTimeMillis, promptVersion, body })
    yield* Console.log(`report kept for the web pages: /replays/${id}`)
  })

const promote = (sessions: ReadonlyArray<SessionId>, promptVersion: string) =>
  Effect.gen(function*() {
    const jobs = yield* PlanJob
    const failed: Array<string> = []
    for (const sessionId of sessions) {
      const outcome = yield* jobs.run(sessionId, { promptVersion, replan: true })
      yield* Console.log(`promoted session ${sessionId}: ${outcome}`)
      if (outcome !== "planned") failed.push(sessionId)
    }
    if (failed.length > 0) {
      return yield* new CliError({ message: `not promoted: ${failed.join(", ")}; the live plans stay in force, see the log` })
    }
  })

export const command = Command.make("replay", options, (args) =>
  Effect.gen(function*() {
    const registry = yield* PromptRegistry
    yield* Effect.mapError(registry.load(args.prompt), (e) =>
      new CliError({ message: `${e.message}; add prompts/${args.prompt}.md or point VERBATIM_PROMPT_DIR at its folder` }))
    const since = Option.map(args.since, DateTime.unsafeFromDate)
    const selected = yield* selectSessions({ sessions: args.session, since })
    const progress = yield* Progress.start("replay", selected.length)
    const results = yield* replay(selected, args.prompt, progress)
    const summary = summarise(args.prompt, results)
    yield* Console.log(args.json ? renderJson(summary, results) : renderText(summary, results))
    if (args.publish) yield* publish(args.prompt, renderJson(summary, results))
    if (args.promote) yield* promote(results.filter((r) => r.status === "changed").map((r) => r.sessionId), args.prompt)
  }).pipe(
    Effect.scoped,
    Effect.provide(PlanJob.layer.pipe(
      Layer.provideMerge(Layer.merge(plannerLayer(args.model), PlanningHold.layer)),
      Layer.provideMerge(IdGenerator.layer),
      Layer.provideMerge(StoreLayer)
    ))
  )).pipe(Command.withDescription("Re-plan recorded sessions under another prompt version and report the differences"))

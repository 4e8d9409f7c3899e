/** `verbatim retry SESSION`: run the plan job again for a session whose planning failed. */
import { Args, Command } from "@effect/cli"
import { SessionId } from "@verbatim/domain/Ids"
import { Leases, maxCrashes } from "@verbatim/projections/Leases"
import { Console, DateTime, Effect, Option } from "effect"
import { PlanJob, planLease, type PlanOutcome } from "../Planning/PlanJob.js"
import { PlanningHold, reasonOf } from "../Planning/PlanningHold.js"
import { load } from "../Sessions.js"
import { CliError } from "./CliError.js"

const said: Record<Exclude<PlanOutcome, "failed" | "held">, string> = {
  "planned": "planned: its notes and questions are recorded",
  "previewed": "planned without recording: nothing changed",
  "already-planned": "already planned; nothing to do (use `verbatim replay --promote` to re-plan under another prompt)",
  "not-closed": "not closed yet; it is planned once it closes",
  "busy": "another process is planning it right now; try again in a moment",
  "no-model": "no model configured: set ANTHROPIC_API_KEY",
  "awaiting-media": "waiting for the text of its voice notes or images (at most VERBATIM_TRANSCRIBE_WAIT after it closed); it is planned then",
  "crashed": `planning it stopped the process ${maxCrashes} times in a row: its messages are parked as a question (the log says more)`
}

/** Why the plan failed, saying "again" only when an earlier attempt had failed too. */
const failedLine = (earlierFailures: number) =>
  `planning failed${earlierFailures > 0 ? " again" : ""}; see the PlanFailed event (\`verbatim events\`) and the log for why`

export const command = Command.make("retry", { sessionId: Args.text({ name: "SESSION" }).pipe(Args.withSchema(SessionId)) }, ({ sessionId }) =>
  Effect.gen(function*() {
    const jobs = yield* PlanJob
    const before = yield* Effect.orDie(load(sessionId))
    // A session parked because its planning kept stopping the process is tried once more: the operator asked.
    const outcome = yield* jobs.run(sessionId, { afterCrashes: true })
    if (outcome === "busy") {
      // The holder may have finished between the refusal and this read: then the generic line.
      const holder = yield* Effect.orElseSucceed((yield* Leases).holder(planLease(sessionId)), Option.none)
      if (Option.isSome(holder)) {
        return yield* new CliError({
          message: `session ${sessionId} is being planned by ${holder.value.owner} since ` +
            `${DateTime.formatIso(holder.value.since)}; try again once it finishes`
        })
      }
    }
    if (before.state.sessionId === null) {
      return yield* new CliError({ message: `no session ${sessionId}: nothing was captured under that id (\`verbatim events\` lists the log)` })
    }
    if (outcome === "held") {
      const held = yield* Effect.flatMap(PlanningHold, (hold) => hold.current)
      const why = Option.match(held, { onNone: () => "planning is held", onSome: reasonOf })
      return yield* new CliError({
        message: `session ${sessionId}: not planned, nothing recorded: ${why}; fix the configuration and retry`
      })
    }
    const line = `session ${sessionId}: ${outcome === "failed" ? failedLine(before.state.failures) : said[outcome]}`
    if (outcome === "planned" || outcome === "already-planned") return yield* Console.log(line)
    return yield* new CliError({ message: line })
  })).pipe(Command.withDescription("Plan again a session whose plan failed"))

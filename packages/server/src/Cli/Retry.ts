/** `verbatim retry SESSION`: run the plan job again for a session whose planning failed. */
import { Args, Command } from "@effect/cli"
import type { SessionId } from "@verbatim/domain/Ids"
import { Leases } from "@verbatim/projections/Leases"
import { Console, DateTime, Effect, Option } from "effect"
import { PlanJob, planLease, type PlanOutcome } from "../PlanJob.js"
import { CliError } from "./CliError.js"

const said: Record<PlanOutcome, string> = {
  "planned": "planned: its notes and questions are recorded",
  "failed": "planning failed again; see the PlanFailed event (`verbatim events`) and the log for why",
  "already-planned": "already planned; nothing to do (use `verbatim replay --promote` to re-plan under another prompt)",
  "not-closed": "not closed yet (or unknown); it is planned once it closes",
  "busy": "another process is planning it right now; try again in a moment",
  "no-model": "no model configured: set ANTHROPIC_API_KEY"
}

export const command = Command.make("retry", { sessionId: Args.text({ name: "SESSION" }) }, ({ sessionId }) =>
  Effect.gen(function*() {
    const jobs = yield* PlanJob
    const outcome = yield* jobs.run(sessionId as SessionId)
    if (outcome === "busy") {
      // The holder may have finished between the refusal and this read: then the generic line.
      const holder = yield* Effect.orElseSucceed((yield* Leases).holder(planLease(sessionId as SessionId)), Option.none)
      if (Option.isSome(holder)) {
        return yield* new CliError({
          message: `session ${sessionId} is being planned by ${holder.value.owner} since ` +
            `${DateTime.formatIso(holder.value.since)}; try again once it finishes`
        })
      }
    }
    const line = `session ${sessionId}: ${said[outcome]}`
    if (outcome === "planned" || outcome === "already-planned") return yield* Console.log(line)
    return yield* new CliError({ message: line })
  })).pipe(Command.withDescription("Plan again a session whose plan failed"))

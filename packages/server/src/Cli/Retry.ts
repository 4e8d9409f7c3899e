/** `verbatim retry SESSION`: run the plan job again for a session whose planning failed. */
import { Args, Command } from "@effect/cli"
import type { SessionId } from "@verbatim/domain/Ids"
import { Console, Effect } from "effect"
import { PlanJob, type PlanOutcome } from "../PlanJob.js"
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
    const line = `session ${sessionId}: ${said[outcome]}`
    if (outcome === "planned" || outcome === "already-planned") return yield* Console.log(line)
    return yield* new CliError({ message: line })
  })).pipe(Command.withDescription("Plan again a session whose plan failed"))

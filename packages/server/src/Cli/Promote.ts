/**
 * `replay --promote`: the changed sessions planned again under the candidate prompt, with their
 * users' corrections carried to the new notes or asked (`Session/Carry.ts`). Without `--yes` it
 * decides each session's plans and prints what would become of its corrections, recording
 * nothing; with `--yes` it records them and prints what did.
 */
import type { SessionId } from "@verbatim/domain/Ids"
import type { Promotion } from "@verbatim/domain/Session/Corrections"
import { Console, Effect, Ref } from "effect"
import { PlanJob } from "../Planning/PlanJob.js"
import { CliError } from "./CliError.js"

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** One session's line: its corrections carried over (re-applied, or so already), asked, lost. */
export const promotionLine = (sessionId: string, outcome: string, p: Promotion | null): string => {
  if (p === null) return `session ${sessionId}: ${outcome}`
  const carried = p.corrections - p.asked - p.lost.length
  return `session ${sessionId}: ${outcome}; ${count(p.corrections, "correction", "corrections")}: ` +
    `${carried} carried over (${p.reapplied} re-applied, ${p.already} so already), ` +
    `${p.asked} turned into ${p.asked === 1 ? "a question" : "questions"}, ${p.lost.length} lost` +
    (p.lost.length === 0 ? "" : ` (${p.lost.join("; ")})`)
}

export const promote = (sessions: ReadonlyArray<SessionId>, promptVersion: string, apply: boolean) =>
  Effect.gen(function*() {
    const jobs = yield* PlanJob
    const failed: Array<string> = []
    const totals = { corrections: 0, carried: 0, asked: 0, lost: 0 }
    for (const sessionId of sessions) {
      const told = yield* Ref.make<Promotion | null>(null)
      const outcome = yield* jobs.run(sessionId, { promptVersion, replan: true, preview: !apply, promoted: (p) => Ref.set(told, p) })
      const promotion = yield* Ref.get(told)
      yield* Console.log(promotionLine(sessionId, apply ? (outcome === "planned" ? "promoted" : outcome) : (outcome === "previewed" ? "would be promoted" : outcome), promotion))
      if (promotion !== null) {
        totals.corrections += promotion.corrections
        totals.asked += promotion.asked
        totals.lost += promotion.lost.length
        totals.carried += promotion.corrections - promotion.asked - promotion.lost.length
      }
      if (outcome !== (apply ? "planned" : "previewed")) failed.push(sessionId)
    }
    yield* Console.log(
      `${apply ? "promoted" : "would promote"} ${count(sessions.length - failed.length, "session", "sessions")}: ` +
        `${count(totals.corrections, "correction", "corrections")}, ${totals.carried} carried over, ${totals.asked} turned into questions, ${totals.lost} lost` +
        (apply ? "" : "\nnothing was recorded: run again with --promote --yes to record these plans")
    )
    if (failed.length > 0) {
      return yield* new CliError({ message: `not promoted: ${failed.join(", ")}; the live plans stay in force, see the log` })
    }
  })

/**
 * What each plan job run reports: one log line (session, outcome, model, tokens, ms), its duration,
 * and the count by outcome. A session that waits (no model, planning held, another instance's
 * lease) is counted and logged at INFO once when it starts waiting; the retries and probes that
 * find it still waiting are logged at DEBUG and not counted, so a rate of `verbatim_plans_total`
 * reads as sessions, not as scheduler passes.
 */
import type { TokenUsage } from "@verbatim/domain/Events"
import type { SessionId } from "@verbatim/domain/Ids"
import { Duration, Effect } from "effect"
import * as Metrics from "./Metrics.js"

/** Where a run adds the model and tokens of the plans it made. */
export interface UsageSink {
  readonly add: (model: string, usage: TokenUsage) => void
}

const waits = new Set(["held", "no-model", "busy"])

/** A reporter for one plan job service: it remembers which sessions are waiting, and on what. */
export const counted = () => {
  const waiting = new Map<SessionId, string>()
  return <O extends string>(sessionId: SessionId, run: (usage: UsageSink) => Effect.Effect<O>): Effect.Effect<O> =>
    Effect.suspend(() => {
      const models = new Set<string>()
      const tokens = { input: 0, output: 0 }
      const sink: UsageSink = {
        add: (model, usage) => {
          models.add(model)
          tokens.input += usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens
          tokens.output += usage.outputTokens
        }
      }
      return Effect.timed(run(sink)).pipe(
        Effect.tap(([elapsed, outcome]) => {
          const repeated = waits.has(outcome) && waiting.get(sessionId) === outcome
          if (waits.has(outcome)) waiting.set(sessionId, outcome)
          else waiting.delete(sessionId)
          const line = repeated ? Effect.logDebug("plan job") : Effect.logInfo("plan job")
          return Effect.all([
            Metrics.planRun(outcome, elapsed),
            repeated ? Effect.void : Metrics.plan(outcome),
            line.pipe(Effect.annotateLogs({
              sessionId,
              outcome,
              model: models.size === 0 ? "none" : [...models].join(","),
              inputTokens: tokens.input,
              outputTokens: tokens.output,
              ms: Math.round(Duration.toMillis(elapsed))
            }))
          ], { discard: true })
        }),
        Effect.map(([, outcome]) => outcome)
      )
    })
}

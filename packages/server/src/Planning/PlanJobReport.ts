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
import * as Metrics from "../Metrics.js"

/** Where a run adds the model and tokens of the plans it made. */
export interface UsageSink {
  readonly add: (model: string, usage: TokenUsage) => void
}

const waits = new Set(["held", "no-model", "busy"])

const line = (repeated: boolean, annotations: Record<string, unknown>) =>
  (repeated ? Effect.logDebug("plan job") : Effect.logInfo("plan job")).pipe(Effect.annotateLogs(annotations))

/** A reporter for one plan job service: it remembers which sessions are waiting, and on what. */
export const counted = () => {
  const waiting = new Map<SessionId, string>()
  /** Whether this outcome repeats the session's wait; remembers the outcome either way. */
  const repeats = (sessionId: SessionId, outcome: string) => {
    const repeated = waits.has(outcome) && waiting.get(sessionId) === outcome
    if (waits.has(outcome)) waiting.set(sessionId, outcome)
    else waiting.delete(sessionId)
    return repeated
  }
  /** Report one run of the job. */
  const run = <O extends string>(sessionId: SessionId, job: (usage: UsageSink) => Effect.Effect<O>): Effect.Effect<O> =>
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
      return Effect.timed(job(sink)).pipe(
        Effect.tap(([elapsed, outcome]) => {
          const repeated = repeats(sessionId, outcome)
          return Effect.all([
            Metrics.planRun(outcome, elapsed),
            repeated ? Effect.void : Metrics.plan(outcome),
            line(repeated, {
              sessionId,
              outcome,
              model: models.size === 0 ? "none" : [...models].join(","),
              inputTokens: tokens.input,
              outputTokens: tokens.output,
              ms: Math.round(Duration.toMillis(elapsed))
            })
          ], { discard: true })
        }),
        Effect.map(([, outcome]) => outcome)
      )
    })
  /** Report a session that waits on the hold without a run of its own, as a run that was held. */
  const held = (sessionId: SessionId): Effect.Effect<void> =>
    Effect.suspend(() => {
      const repeated = repeats(sessionId, "held")
      return Effect.zipRight(
        repeated ? Effect.void : Metrics.plan("held"),
        line(repeated, { sessionId, outcome: "held", model: "none", inputTokens: 0, outputTokens: 0, ms: 0 })
      )
    })
  return { run, held }
}

/**
 * The session lifecycle over time: sessions idle for the configured time are closed, and every
 * closed session still owed a plan is planned. Time comes from `Clock`, so tests drive it with
 * `TestClock`. With several instances each may close a session; the stream's expected version
 * lets exactly one `SessionClosed` through, and the plan job's lease lets one instance plan.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { DateTime, Duration, Effect, Option, Schedule } from "effect"
import { EventStore } from "@verbatim/projections/EventStore"
import { closeSession } from "./Ingest.js"
import { PlanJob } from "./PlanJob.js"
import * as Queries from "./SessionQueries.js"

/** What one tick did. */
export interface Tick {
  readonly closed: number
  readonly planned: number
}

/**
 * Close idle sessions, then plan every closed session that has no plan yet; once a user's session
 * plans, that user's sessions that failed earlier are planned again.
 */
export const tick = Effect.fn("Scheduler.tick")(function*(idle: Duration.Duration) {
    const now = yield* DateTime.now
    const cutoff = DateTime.formatIso(DateTime.subtractDuration(now, idle))
    const idleSessions = yield* Queries.idleSessions(cutoff)
    let closed = 0
    for (const sessionId of idleSessions) {
      const didClose = yield* closeSession(sessionId, "idle").pipe(
        Effect.catchTag("AppendConflict", () => Effect.succeed(false))
      )
      if (didClose) closed += 1
    }
    const jobs = yield* PlanJob
    const owed = yield* Queries.unplannedSessions
    let planned = 0
    const recovered = new Set<string>()
    for (const sessionId of owed) {
      if ((yield* jobs.run(sessionId)) !== "planned") continue
      planned += 1
      const user = yield* Queries.sessionUser(sessionId)
      if (Option.isSome(user)) recovered.add(user.value)
    }
    // The model answers again: sessions it failed for these users earlier are planned now.
    for (const user of recovered) {
      for (const sessionId of yield* Queries.failedSessions(user)) {
        if ((yield* jobs.run(sessionId)) === "planned") planned += 1
      }
    }
    return { closed, planned } satisfies Tick
})

/** Tick every `interval` forever (run it in a scoped fiber). */
export const run = (idle: Duration.Duration, interval: Duration.DurationInput) =>
  tick(idle).pipe(
    Effect.tapErrorCause((cause) => Effect.logError("scheduler tick failed", cause)),
    Effect.ignore,
    Effect.repeat(Schedule.spaced(interval)),
    Effect.asVoid
  ) satisfies Effect.Effect<void, never, EventStore | SqlClient | PlanJob>

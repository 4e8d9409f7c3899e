/**
 * Closing idle sessions over time: a session whose last message is older than the idle time is
 * closed. Time comes from `Clock`, so tests drive it with `TestClock`. With several instances each
 * may try; the stream's expected version lets exactly one `SessionClosed` through. Planning
 * follows from the `SessionClosed` event (`PlanTrigger`), not from here.
 */
import { DateTime, Duration, Effect, Schedule } from "effect"
import type { EventStore } from "@verbatim/projections/EventStore"
import type { FoldCache } from "@verbatim/projections/FoldCache"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import { closeSession } from "./Inbox/Ingest.js"

/** Close every open session idle for `idle`; how many closed. */
export const closeIdle = Effect.fn("Scheduler.closeIdle")(function*(idle: Duration.Duration, webIdle: Duration.Duration = idle) {
  const now = yield* DateTime.now
  const cutoff = (quiet: Duration.Duration) => DateTime.formatIso(DateTime.subtractDuration(now, quiet))
  const idleSessions = yield* Effect.flatMap(SessionLookups, (read) => read.idleSessions(cutoff(idle), cutoff(webIdle)))
  let closed = 0
  for (const sessionId of idleSessions) if (yield* closeSession(sessionId, "idle")) closed += 1
  return closed
})

/** Close idle sessions every `interval` forever (run it in a scoped fiber). */
export const run = (idle: Duration.Duration, webIdle: Duration.Duration, interval: Duration.DurationInput) =>
  closeIdle(idle, webIdle).pipe(
    Effect.tapErrorCause((cause) => Effect.logError("closing idle sessions failed", cause)),
    Effect.ignore,
    Effect.repeat(Schedule.spaced(interval)),
    Effect.asVoid
  ) satisfies Effect.Effect<void, never, EventStore | FoldCache | SessionLookups>

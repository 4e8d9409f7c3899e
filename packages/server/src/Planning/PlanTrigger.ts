/**
 * Planning reacts to events: every `SessionClosed` in the log runs the plan job for its session,
 * read by a catch-up pass from where the last one ended (the log's head at start-up: sessions
 * already owed then are found once, in the queues' reads), run as soon as one is appended in this
 * process (`Wakeups`) and on a poll besides. A run that another instance holds, or
 * that failed, is tried again with backoff, a few times (looked for on every poll, even when the
 * log is quiet); once a user's session plans, that user's
 * sessions that failed earlier are planned again (the model answers again). While planning is
 * held on an operator's error (`PlanningHold`), sessions wait in a held set and no model call is
 * made per session: one held session probes the model on a backoff (5 s doubling, at most every
 * 5 minutes, for as long as the hold lasts); once the hold clears, every held session plans.
 * Different users' sessions plan at once (up to 64 users at a time), each user's in order.
 */
import type { SessionId, UserId } from "@verbatim/domain/Ids"
import { type Checkpoint, checkpointOf, EventStore, isAfter, type RecordedEvent } from "@verbatim/projections/EventStore"
import { Jobs } from "@verbatim/projections/Jobs"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import { Wakeups } from "@verbatim/projections/Wakeups"
import { Clock, Context, Duration, Effect, FiberSet, Layer, Option, Stream } from "effect"
import { PlanJob } from "./PlanJob.js"
import { PlanningHold } from "./PlanningHold.js"

/** Retries of a run that was busy or failed: 2 s, 4 s, … 64 s, then left to the next plan of the user or `verbatim retry`. */
const maxRetries = 6

/**
 * The only events planning reads: the store filters the log, so captures cost the trigger nothing.
 * An attachment's outcome matters only to a session waiting for its media's text.
 */
const closes = ["SessionClosed", "MediaTranscribed", "MediaFailed"] as const
/** Users whose sessions are planned at once (each user's one after another): a model call mostly waits, so many. */
const usersAtOnce = 64
/** How often a session waiting for its media's text looks again, besides when an outcome lands. */
const mediaPoll = 2_000
const backoff = (attempt: number) => Duration.toMillis(Duration.seconds(2 ** attempt))
/** The probe's wait after its `attempt`th refusal: 5 s, 10 s, … capped at 5 minutes. */
export const probeDelay = (attempt: number) => Math.min(5_000 * 2 ** (attempt - 1), Duration.toMillis(Duration.minutes(5)))

export class PlanTrigger extends Context.Tag("@verbatim/server/PlanTrigger")<PlanTrigger, {
  /** Plan every session closed since the last call (and due retries); resolves once caught up with the log, with how many planned. */
  readonly catchUp: Effect.Effect<number>
  /** Follow the log for as long as the scope lives (the service's background fiber). */
  readonly follow: (pollInterval: Duration.DurationInput) => Effect.Effect<void>
}>() {
  static readonly make = Effect.gen(function*() {
    const store = yield* EventStore
    const wakeups = yield* Wakeups
    const queues = yield* Jobs
    const lookups = yield* SessionLookups
    const jobs = yield* PlanJob
    const hold = yield* PlanningHold
    const lock = yield* Effect.makeSemaphore(1)
    const fibers = yield* FiberSet.make<void>()
    /** At most `usersAtOnce` users' planning in the background at a time. */
    const slots = yield* Effect.makeSemaphore(usersAtOnce)
    let cursor: Checkpoint = yield* Effect.orDie(store.head)
    const retries = new Map<SessionId, { readonly attempt: number; readonly at: number }>()
    /** Closed sessions waiting for the text of their attachments. */
    const awaiting = new Set<SessionId>()
    /** Sessions waiting for the hold to clear, in the order they came, and when the model is probed next. */
    const held = new Set<SessionId>()
    let probe = { attempt: 0, at: 0 }
    const isHeld = Effect.map(hold.current, Option.isSome)
    for (const sessionId of yield* Effect.orDie(queues.unplannedSessions)) retries.set(sessionId, { attempt: 0, at: 0 })

    /** Run one session's plan job; note what to retry, what waits for media, what is held. True when it planned. */
    const runOne = (sessionId: SessionId) =>
      Effect.gen(function*() {
        const previous = retries.get(sessionId)
        retries.delete(sessionId)
        // Held: the session waits, and the model is not called for it.
        if (yield* isHeld) {
          held.add(sessionId)
          yield* jobs.held(sessionId)
          return false
        }
        const outcome = yield* jobs.run(sessionId)
        if (outcome === "held") {
          held.add(sessionId)
          probe = { attempt: 1, at: (yield* Clock.currentTimeMillis) + probeDelay(1) }
          return false
        }
        held.delete(sessionId)
        awaiting.delete(sessionId)
        if (outcome === "awaiting-media") {
          awaiting.add(sessionId)
          retries.set(sessionId, { attempt: previous?.attempt ?? 0, at: (yield* Clock.currentTimeMillis) + mediaPoll })
        } else if ((outcome === "busy" || outcome === "failed") && (previous?.attempt ?? 0) < maxRetries) {
          const attempt = (previous?.attempt ?? 0) + 1
          retries.set(sessionId, { attempt, at: (yield* Clock.currentTimeMillis) + backoff(attempt) })
        }
        return outcome === "planned"
      })

    /** One user's sessions in order; once one plans, the user's sessions that failed earlier are planned again. */
    const planUser = (user: Option.Option<UserId>, owned: ReadonlyArray<SessionId>) =>
      Effect.gen(function*() {
        let planned = 0
        for (const sessionId of owned) if (yield* runOne(sessionId)) planned += 1
        if (planned === 0 || Option.isNone(user)) return planned
        for (const sessionId of yield* Effect.orDie(queues.failedSessions(user.value))) {
          if (yield* isHeld) return planned
          if ((yield* jobs.run(sessionId)) === "planned") planned += 1
        }
        return planned
      })

    /** Users whose planning runs in the background (`follow`), and the sessions each has still to plan. */
    const queued = new Map<string, { readonly user: Option.Option<UserId>; readonly sessions: Array<SessionId> }>()
    const drainUser = (key: string): Effect.Effect<void> =>
      Effect.suspend(() => {
        const entry = queued.get(key)
        const next = entry?.sessions.splice(0) ?? []
        // Taken and forgotten in one step: a session queued after it finds no entry and starts a new drain.
        if (entry === undefined || next.length === 0) {
          queued.delete(key)
          return Effect.void
        }
        // A defect is logged and the drain goes on: the user's later sessions must not wait on a dead fiber.
        const planned = planUser(entry.user, next).pipe(Effect.catchAllCause((cause) => Effect.logError("planning a user's sessions failed", cause)))
        return Effect.zipRight(slots.withPermits(1)(planned), drainUser(key))
      })

    /**
     * Plan these sessions, each user's in order and different users' at once; the planned count.
     * In the background (`follow`), each user's planning is handed to a fiber of its own and the
     * pass ends at once: a slow model call holds up only its own user's next session.
     */
    const plan = (sessions: Iterable<SessionId>, background = false) =>
      Effect.gen(function*() {
        let planned = 0
        const now = yield* Clock.currentTimeMillis
        if (yield* isHeld) {
          for (const sessionId of sessions) yield* runOne(sessionId)
          const first = held.values().next()
          if (first.done === true || now < probe.at) return 0
          // The probe: one held session's real run, which plans it if the provider accepts the call.
          const outcome = yield* jobs.run(first.value)
          if (outcome === "held") {
            probe = { attempt: probe.attempt + 1, at: now + probeDelay(probe.attempt + 1) }
            return 0
          }
          held.delete(first.value)
          if (outcome === "planned") planned += 1
        }
        // Not held (any longer): the sessions that waited plan first, in the order they came.
        const waiting = (yield* isHeld) ? [] : [...held]
        const byUser = new Map<string, { readonly user: Option.Option<UserId>; readonly sessions: Array<SessionId> }>()
        for (const sessionId of new Set([...waiting, ...sessions])) {
          const user = yield* Effect.orDie(lookups.sessionUser(sessionId))
          const key = Option.getOrElse(user, () => sessionId)
          byUser.set(key, { user, sessions: [...(byUser.get(key)?.sessions ?? []), sessionId] })
        }
        if (background) {
          for (const [key, { sessions: owned, user }] of byUser) {
            const running = queued.get(key)
            if (running !== undefined) running.sessions.push(...owned)
            else {
              queued.set(key, { user, sessions: [...owned] })
              yield* FiberSet.run(fibers, drainUser(key))
            }
          }
          return planned
        }
        const counts = yield* Effect.forEach(byUser.values(), ({ sessions: owned, user }) => planUser(user, owned), { concurrency: usersAtOnce })
        return counts.reduce((a, n) => a + n, planned)
      })

    const due = Effect.map(Clock.currentTimeMillis, (now) => [...retries].filter(([, r]) => r.at <= now).map(([id]) => id))
    const closedIn = (events: Iterable<RecordedEvent>) => {
      const closed = new Set<SessionId>()
      for (const e of events) {
        cursor = checkpointOf(e)
        if (e.event._tag === "SessionClosed") closed.add(e.event.sessionId)
        else if ((e.event._tag === "MediaTranscribed" || e.event._tag === "MediaFailed") && awaiting.has(e.event.sessionId)) {
          closed.add(e.event.sessionId)
        }
      }
      return closed
    }

    const pass = (background: boolean) =>
      lock.withPermits(1)(Effect.gen(function*() {
        const head = yield* Effect.orDie(store.head)
        const events = yield* Effect.orDie(Stream.runCollect(store.readAll(cursor, { types: closes })))
        const closed = closedIn(events)
        if (isAfter(head, cursor)) cursor = head
        return yield* plan(new Set([...(yield* due), ...closed]), background)
      }))
    const catchUp = pass(false)

    // Woken at once by a close or a media outcome appended in this process; the poll finds
    // another instance's, and the retries coming due on a quiet log.
    const follow = (pollInterval: Duration.DurationInput) =>
      wakeups.loop(closes, pollInterval, pass(true)).pipe(
        Effect.tapErrorCause((cause) => Effect.logError("following the log for planning failed", cause)),
        Effect.ignore
      )

    return PlanTrigger.of({ catchUp, follow })
  })

  static readonly layer = Layer.scoped(PlanTrigger, PlanTrigger.make)
}

/**
 * Work that waits for events is woken when they are appended, not on the next poll. The store
 * tells `appended` the events of every transaction it commits; each event worth waking for has a
 * topic (`topicOf`), and a worker's loop (`loop`) runs its pass again at once when one of its
 * topics was appended while the last pass ran or since, else after `interval`. On PostgreSQL the
 * topics of each commit are also announced with `NOTIFY` and heard by every other instance
 * (`heard`), so a reply queued on one is sent by whichever runs its outbox. The poll stays only
 * as the safety net for a wake-up missed.
 */
import type { Event } from "@verbatim/domain/Events"
import { Context, Deferred, type Duration, Effect, Layer } from "effect"

/**
 * What a worker waits for: an event of one of these kinds; `MediaOwed` is a message with
 * attachments, `ReminderTimes` a reminder given a due time (scheduled, snoozed or rescheduled),
 * `PlanApplied` a plan whose reminders are to be taken, `MessageEdited` an edit that may take a
 * reminder's words away, `AskPosed` a question to answer, `AskFinished` its answer or failure.
 */
export type Topic =
  | "SessionClosed"
  | "MediaTranscribed"
  | "MediaFailed"
  | "ReplyQueued"
  | "MediaOwed"
  | "ReminderTimes"
  | "PlanApplied"
  | "MessageEdited"
  | "AskPosed"
  | "AskFinished"

const topics: ReadonlySet<string> = new Set<Topic>([
  "SessionClosed",
  "MediaTranscribed",
  "MediaFailed",
  "ReplyQueued",
  "MediaOwed",
  "ReminderTimes",
  "PlanApplied",
  "MessageEdited",
  "AskPosed",
  "AskFinished"
])

/** The topic an event wakes, if any: most events (a plain capture among them) wake nothing. */
export const topicOf = (event: Event): Topic | null => {
  switch (event._tag) {
    case "MessageReceived":
      return event.message.attachments.length > 0 ? "MediaOwed" : null
    case "ReminderScheduled":
    case "ReminderSnoozed":
    case "ReminderRescheduled":
      return "ReminderTimes"
    case "AskAnswered":
    case "AskFailed":
      return "AskFinished"
    default:
      return topics.has(event._tag) ? event._tag as Topic : null
  }
}

/** The topics of a commit's events, each once. */
export const topicsOf = (events: ReadonlyArray<Event>): ReadonlyArray<Topic> => {
  const found = new Set<Topic>()
  for (const event of events) {
    const topic = topicOf(event)
    if (topic !== null) found.add(topic)
  }
  return [...found]
}

/** Whether a name read from another instance is a topic. */
export const isTopic = (name: string): name is Topic => topics.has(name)

interface Waiter {
  readonly topics: ReadonlyArray<Topic>
  readonly woken: Deferred.Deferred<void>
}

export class Wakeups extends Context.Tag("@verbatim/projections/Wakeups")<Wakeups, {
  /** Wake every waiter for one of these topics (this instance's commits, and those heard from others). */
  readonly heard: (topics: ReadonlyArray<Topic>) => void
  /**
   * Run `pass` forever: again at once when one of `topics` was heard while the last pass ran or
   * since, else after `interval` (or the wait the pass's result asks for: the next reminder's time).
   */
  readonly loop: <A, E, R>(
    topics: ReadonlyArray<Topic>,
    interval: Duration.DurationInput | ((result: A) => Duration.DurationInput),
    pass: Effect.Effect<A, E, R>
  ) => Effect.Effect<never, E, R>
  /**
   * Wait until `ready` holds, looking again each time one of `topics` is heard, for at most
   * `within`; whether it came to hold (a long poll: the compose page waiting for the bot's reply).
   */
  readonly waitUntil: <E, R>(topics: ReadonlyArray<Topic>, within: Duration.DurationInput, ready: Effect.Effect<boolean, E, R>) => Effect.Effect<boolean, E, R>
}>() {
  static readonly layer = Layer.sync(Wakeups, () => {
    const waiters = new Set<Waiter>()
    const heard = (heardTopics: ReadonlyArray<Topic>) => {
      if (heardTopics.length === 0) return
      for (const waiter of waiters) {
        if (waiter.topics.some((t) => heardTopics.includes(t))) {
          waiters.delete(waiter)
          Deferred.unsafeDone(waiter.woken, Effect.void)
        }
      }
    }
    const loop = <A, E, R>(
      waitedFor: ReadonlyArray<Topic>,
      interval: Duration.DurationInput | ((result: A) => Duration.DurationInput),
      pass: Effect.Effect<A, E, R>
    ) =>
      Effect.forever(
        Effect.gen(function*() {
          // Listening before the pass starts: a topic heard while it runs is not missed.
          const waiter: Waiter = { topics: waitedFor, woken: yield* Deferred.make<void>() }
          waiters.add(waiter)
          yield* Effect.ensuring(
            Effect.flatMap(pass, (result) =>
              Effect.raceFirst(Deferred.await(waiter.woken), Effect.sleep(typeof interval === "function" ? interval(result) : interval))),
            Effect.sync(() => waiters.delete(waiter))
          )
        })
      )
    const listening = (waitedFor: ReadonlyArray<Topic>) =>
      Effect.acquireRelease(
        Effect.map(Deferred.make<void>(), (woken) => {
          const waiter: Waiter = { topics: waitedFor, woken }
          waiters.add(waiter)
          return waiter
        }),
        (waiter) => Effect.sync(() => waiters.delete(waiter))
      )
    const waitUntil = <E, R>(waitedFor: ReadonlyArray<Topic>, within: Duration.DurationInput, ready: Effect.Effect<boolean, E, R>) => {
      const look: Effect.Effect<boolean, E, R> = Effect.scoped(Effect.gen(function*() {
        // Listening before looking: what is heard between the look and the wait is not missed.
        const waiter = yield* listening(waitedFor)
        if (yield* ready) return true
        yield* Deferred.await(waiter.woken)
        return false
      })).pipe(Effect.flatMap((done) => (done ? Effect.succeed(true) : look)))
      return look.pipe(Effect.timeoutTo({ duration: within, onTimeout: () => false, onSuccess: (done) => done }))
    }
    return Wakeups.of({ heard, loop, waitUntil })
  })
}

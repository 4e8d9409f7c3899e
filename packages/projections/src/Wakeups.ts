/**
 * Work that waits for events is woken in this process when they are appended, not on the next
 * poll: the store tells `appended` the events of every transaction it commits, and a worker's
 * loop (`loop`) runs its pass again at once when an event it wants was appended since its last
 * pass began, or after `interval` when none was: the poll stays only as the safety net (another
 * instance's appends, a wake-up missed).
 */
import type { Event } from "@verbatim/domain/Events"
import { Context, Deferred, type Duration, Effect, Layer } from "effect"

interface Waiter {
  readonly wants: (event: Event) => boolean
  readonly woken: Deferred.Deferred<void>
}

export class Wakeups extends Context.Tag("@verbatim/projections/Wakeups")<Wakeups, {
  /** The store's note of a committed transaction's events: every waiter that wants one of them is woken. */
  readonly appended: (events: ReadonlyArray<Event>) => void
  /**
   * Run `pass` forever: again at once when an event `wants` picks was appended while the last pass
   * ran or since, else after `interval`.
   */
  readonly loop: <E, R>(wants: (event: Event) => boolean, interval: Duration.DurationInput, pass: Effect.Effect<unknown, E, R>) => Effect.Effect<never, E, R>
}>() {
  static readonly layer = Layer.sync(Wakeups, () => {
    const waiters = new Set<Waiter>()
    const appended = (events: ReadonlyArray<Event>) => {
      for (const waiter of waiters) {
        if (events.some(waiter.wants)) {
          waiters.delete(waiter)
          Deferred.unsafeDone(waiter.woken, Effect.void)
        }
      }
    }
    const loop = <E, R>(wants: (event: Event) => boolean, interval: Duration.DurationInput, pass: Effect.Effect<unknown, E, R>) =>
      Effect.forever(
        Effect.gen(function*() {
          // Listening before the pass starts: an event appended while it runs is not missed.
          const waiter: Waiter = { wants, woken: yield* Deferred.make<void>() }
          waiters.add(waiter)
          yield* Effect.ensuring(
            Effect.zipRight(pass, Effect.raceFirst(Deferred.await(waiter.woken), Effect.sleep(interval))),
            Effect.sync(() => waiters.delete(waiter))
          )
        })
      )
    return Wakeups.of({ appended, loop })
  })
}

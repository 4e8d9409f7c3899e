/**
 * One writer per conversation in this process: captures for the same sender and chat queue up
 * instead of racing for the session stream's next version. Across processes the stream's
 * expected version still decides, and the loser retries.
 */
import { Context, Deferred, Effect, Exit, FiberId, FiberRef } from "effect"

/** Runs an effect in a place taken in a key's queue; to be used exactly once. */
export type Place = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>

/** FIFO locks by key; a key is known only while someone holds or waits for it. */
export interface KeyedLocks {
  readonly withLock: <A, E, R>(key: string, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /**
   * Take the next place in the key's queue now, outside any fiber: whatever runs in it waits for
   * every place taken before, and every place taken after waits for it. A capture batch takes
   * places while it is decided, so work it hands off keeps its order against later batches.
   */
  readonly reserve: (key: string) => Place
  /** Whether anyone holds or waits for the key. */
  readonly isBusy: (key: string) => boolean
}

/** The keys the current fiber holds: taking one again runs in the place it holds (a lock is re-entrant). */
const held = FiberRef.unsafeMake<ReadonlySet<string>>(new Set())

export const makeKeyedLocks = (): KeyedLocks => {
  /** Each key's last place: done once its holder and everyone before it are done. */
  const tails = new Map<string, Deferred.Deferred<void>>()
  const reserve = (key: string): Place => {
    const before = tails.get(key)
    const done = Deferred.unsafeMake<void>(FiberId.none)
    tails.set(key, done)
    const waitBefore = before === undefined ? Effect.void : Deferred.await(before)
    // Released only after the place before is (an interrupted waiter must not let the next one in early).
    const release = Effect.zipRight(waitBefore, Effect.sync(() => {
      Deferred.unsafeDone(done, Exit.void)
      if (tails.get(key) === done) tails.delete(key)
    }))
    const holding = (effect: Effect.Effect<unknown, unknown, unknown>) => Effect.locallyWith(effect, held, (keys) => new Set(keys).add(key))
    return (effect) => Effect.ensuring(Effect.zipRight(waitBefore, holding(effect) as typeof effect), release)
  }
  return {
    withLock: (key, effect) =>
      Effect.flatMap(FiberRef.get(held), (keys) => keys.has(key) ? effect : reserve(key)(effect)),
    reserve,
    isBusy: (key) => tails.has(key)
  }
}

/** The process's conversation locks; a reference with a default, so every capture path shares it unwired. */
export class ConversationLocks extends Context.Reference<ConversationLocks>()("@verbatim/server/ConversationLocks", {
  defaultValue: makeKeyedLocks
}) {}

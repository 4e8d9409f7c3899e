/**
 * One writer per conversation in this process: captures for the same sender and chat queue up
 * instead of racing for the session stream's next version. Across processes the stream's
 * expected version still decides, and the loser retries.
 */
import { Context, Effect } from "effect"

interface Entry {
  readonly semaphore: Effect.Semaphore
  holders: number
}

/** Locks by key; an entry lives only while someone holds or waits for it. */
export interface KeyedLocks {
  readonly withLock: <A, E, R>(key: string, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

export const makeKeyedLocks = (): KeyedLocks => {
  const entries = new Map<string, Entry>()
  const enter = (key: string) =>
    Effect.sync(() => {
      const entry = entries.get(key) ?? { semaphore: Effect.unsafeMakeSemaphore(1), holders: 0 }
      entry.holders += 1
      entries.set(key, entry)
      return entry
    })
  const leave = (key: string, entry: Entry) =>
    Effect.sync(() => {
      entry.holders -= 1
      if (entry.holders === 0) entries.delete(key)
    })
  return {
    withLock: (key, effect) =>
      Effect.acquireUseRelease(enter(key), (entry) => entry.semaphore.withPermits(1)(effect), (entry) => leave(key, entry))
  }
}

/** The process's conversation locks; a reference with a default, so every capture path shares it unwired. */
export class ConversationLocks extends Context.Reference<ConversationLocks>()("@verbatim/server/ConversationLocks", {
  defaultValue: makeKeyedLocks
}) {}

/**
 * What this process remembers between commands, per store: each stream's fold as of a version
 * (the runner's), and small lookups its callers repeat (a conversation's open session). Every
 * memory is a guess that may be behind the log: an append checks the version it was decided at,
 * and a conflict forgets the guess. Provided with the store, so a memory never crosses stores.
 */
import { Context, Layer } from "effect"

/** A bounded map, newest last: past `size` keys the oldest is forgotten. */
export interface Memory<V> {
  readonly get: (key: string) => V | undefined
  readonly set: (key: string, value: V) => void
  readonly delete: (key: string) => void
}

const bounded = <V>(size: number): Memory<V> => {
  const entries = new Map<string, V>()
  return {
    get: (key) => entries.get(key),
    set: (key, value) => {
      entries.delete(key)
      entries.set(key, value)
      if (entries.size > size) entries.delete(entries.keys().next().value!)
    },
    delete: (key) => void entries.delete(key)
  }
}

export class FoldCache extends Context.Tag("@verbatim/projections/FoldCache")<FoldCache, {
  /** The memory named `name` (made with room for `size` keys on first use; the same one after). */
  readonly memory: <V>(name: string, size: number) => Memory<V>
}>() {
  static readonly layer = Layer.sync(FoldCache, () => {
    const memories = new Map<string, Memory<unknown>>()
    return FoldCache.of({
      memory: <V>(name: string, size: number) => {
        let memory = memories.get(name)
        if (memory === undefined) memories.set(name, memory = bounded<unknown>(size))
        return memory as Memory<V>
      }
    })
  })
}

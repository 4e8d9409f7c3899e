/** Fresh identifiers as a service, so tests can make them predictable. */
import { Context, Effect, Layer, Ref } from "effect"
import { randomUUID } from "node:crypto"

export class IdGenerator extends Context.Tag("@verbatim/server/IdGenerator")<
  IdGenerator,
  { readonly next: (prefix: string) => Effect.Effect<string> }
>() {
  /** Random UUIDs behind a readable prefix (`note_…`, `q_…`). */
  static readonly layer = Layer.succeed(IdGenerator, {
    next: (prefix) => Effect.sync(() => `${prefix}_${randomUUID()}`)
  })

  /** Counters per prefix: `note_1`, `note_2`, … */
  static readonly layerTest = Layer.effect(
    IdGenerator,
    Effect.map(Ref.make(new Map<string, number>()), (counters) => ({
      next: (prefix: string) =>
        Ref.modify(counters, (m) => {
          const n = (m.get(prefix) ?? 0) + 1
          return [`${prefix}_${n}`, new Map(m).set(prefix, n)] as const
        })
    }))
  )
}

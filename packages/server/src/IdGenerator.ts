/** Fresh identifiers as a service, so tests can make them predictable. */
import { countingIds, type IdSupply } from "@verbatim/domain/Ids"
import { Context, Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"

export class IdGenerator extends Context.Tag("@verbatim/server/IdGenerator")<
  IdGenerator,
  {
    readonly next: (prefix: string) => Effect.Effect<string>
    /** A supply for a decision to draw from (decisions are pure, so they take ids as a value). */
    readonly supply: Effect.Effect<IdSupply>
  }
>() {
  /** Random UUIDs behind a readable prefix (`note_…`, `q_…`). */
  static readonly layer = Layer.sync(IdGenerator, () => {
    const random: IdSupply = { next: (prefix) => `${prefix}_${randomUUID()}` }
    return { next: (prefix) => Effect.sync(() => random.next(prefix)), supply: Effect.succeed(random) }
  })

  /** Counters per prefix, shared by every decision: `note_1`, `note_2`, … */
  static readonly layerTest = Layer.sync(IdGenerator, () => {
    const counting = countingIds()
    return { next: (prefix) => Effect.sync(() => counting.next(prefix)), supply: Effect.succeed(counting) }
  })
}

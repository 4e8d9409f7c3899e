/** Polling a test's observation until it holds. */
import { Effect } from "effect"

/** Look every 20 ms until `found` holds, `tries` times at most (20 s by default); the last look either way. */
export const eventually = <A, E, R>(look: Effect.Effect<A, E, R>, found: (a: A) => boolean, tries = 1000) =>
  Effect.gen(function*() {
    for (let tried = 0; tried < tries; tried++) {
      const seen = yield* look
      if (found(seen)) return seen
      yield* Effect.sleep("20 millis")
    }
    return yield* look
  })

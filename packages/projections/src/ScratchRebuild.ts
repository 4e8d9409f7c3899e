/**
 * A rebuild into a scratch copy: the projections rebuilt inside a transaction that is rolled back,
 * each table's digest compared with the live one. Live tables are untouched, so it is safe beside
 * a running server; a table that differs means a projection is not deterministic.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Data, Effect } from "effect"
import { digest } from "./Projections/Rebuild.js"

class Scratch extends Data.TaggedError("Scratch")<{ readonly events: number; readonly digests: Record<string, string> }> {}

/** Run `rebuildOnce` (it returns the events replayed) on a scratch copy; the events replayed and the tables that differ. */
export const verifyRebuild = <E, R>(rebuildOnce: Effect.Effect<number, E, R>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const live = yield* digest()
    const scratch = yield* sql.withTransaction(Effect.gen(function*() {
      const events = yield* rebuildOnce
      return yield* new Scratch({ events, digests: yield* digest() })
    })).pipe(Effect.catchIf((error): error is Scratch => error instanceof Scratch, Effect.succeed))
    const differing = Object.keys(live).filter((table) => live[table as keyof typeof live] !== scratch.digests[table])
    return { events: scratch.events, differing }
  })

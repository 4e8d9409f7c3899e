/**
 * Applies recorded events to the read-model tables as row changes: the rows a batch names are
 * loaded, each event changes them in memory, and the batch is written back with a few multi-row
 * statements. The live path applies each append as a batch and a rebuild each page, through this
 * one function. Each event goes to the projections (one per read model, see Registry) that
 * handle its type. Every change is keyed by an id or a log position and sets absolute values, so
 * applying the same events twice changes nothing, and nothing reads the clock, so a replay writes
 * the same bytes as the live path did.
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import { StoreError } from "../EventStore.js"
import { keepActivity } from "./Activity.js"
import { load } from "./Load.js"
import { refuseDuplicate } from "./Notes.js"
import type { Projected } from "./Projection.js"
import { projectionsOf } from "./Registry.js"
import { Batch } from "./Rows.js"

const sqlFailure = (cause: SqlError) => new StoreError({ reason: "sql", message: String(cause), cause })

/**
 * Load the rows a batch of events names and change them in memory, without writing: the caller
 * flushes the batch. A rebuild on PostgreSQL writes one page while it reads the next.
 */
export const project = (events: ReadonlyArray<Projected>): Effect.Effect<Batch, StoreError, SqlClient> =>
  Effect.gen(function*() {
    const batch = new Batch()
    if (events.length === 0) return batch
    yield* load(batch, events)
    for (const recorded of events) {
      for (const projection of projectionsOf(recorded.event._tag)) {
        const refused = projection.evolve(batch, recorded)
        if (refused) return yield* refused
      }
    }
    return batch
  }).pipe(Effect.catchTag("SqlError", (cause) => Effect.fail(sqlFailure(cause))))

/** Write a projected batch back. */
export const flush = (batch: Batch): Effect.Effect<void, StoreError, SqlClient> =>
  batch.flush(refuseDuplicate).pipe(
    Effect.zipRight(keepActivity(batch)),
    Effect.catchTag("SqlError", (cause) => Effect.fail(sqlFailure(cause)))
  )

/** Apply events in order to the read models (inline on append, or a page of a rebuild). */
export const apply = (events: ReadonlyArray<Projected>): Effect.Effect<void, StoreError, SqlClient> =>
  events.length === 0 ? Effect.void : Effect.flatMap(project(events), flush)

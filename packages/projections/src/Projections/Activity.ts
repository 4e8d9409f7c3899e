/**
 * Each person's activity kept in `people.active`: the position of their newest note not
 * discarded, or where they were added when they have none (`personActivity`). After a batch's
 * rows are written, the people its changed notes were and are filed under get theirs set again,
 * from the notes table as the batch left it, so adds, moves, merges, discards and erasures all
 * keep it, live and in a rebuild alike.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"
import { personActivity } from "../Queries/Indexes.js"
import type { Batch } from "./Rows.js"

/** People set again per statement. */
const chunk = 500

export const keepActivity = (batch: Batch) =>
  Effect.flatMap(SqlClient, (sql) => {
    const people = batch.touched("notes", "person_id").map(String).sort()
    return Effect.forEach(
      Array.from({ length: Math.ceil(people.length / chunk) }, (_, i) => people.slice(i * chunk, (i + 1) * chunk)),
      (ids) =>
        Effect.zipRight(
          // PostgreSQL: lock the people first, so the statement below reads the notes of any batch
          // that set them before this one committed (its own snapshot would not).
          sql.onDialectOrElse({
            pg: () => Effect.asVoid(sql`SELECT person_id FROM people WHERE ${sql.in("person_id", ids)} ORDER BY person_id FOR UPDATE`),
            orElse: () => Effect.void
          }),
          sql`UPDATE people SET active = ${sql.literal(personActivity("people"))} WHERE ${sql.in("person_id", ids)}`
        ),
      { discard: true }
    )
  })

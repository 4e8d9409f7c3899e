/** Each person's kept activity, as stored and as worked out from the notes table now: a test expects the two equal. */
import { SqlClient } from "@effect/sql/SqlClient"
import { personActivity } from "@verbatim/projections/Queries/Indexes"
import { Effect } from "effect"

export const activityKept = Effect.flatMap(SqlClient, (sql) =>
  Effect.all({
    kept: sql<{ person_id: string; active: number | string }>`SELECT person_id, active FROM people ORDER BY person_id`,
    fromNotes: sql<{ person_id: string; active: number | string }>`SELECT person_id, ${sql.literal(personActivity("people"))} AS active FROM people ORDER BY person_id`
  }).pipe(Effect.map(({ fromNotes, kept }) => ({
    kept: kept.map((r) => [r.person_id, Number(r.active)]),
    fromNotes: fromNotes.map((r) => [r.person_id, Number(r.active)])
  }))))

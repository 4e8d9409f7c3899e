/** A user's people, as plans and answers resolve owners against them. */
import { SqlClient } from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { PersonId, UserId } from "@verbatim/domain/Ids"
import type { KnownPerson } from "@verbatim/domain/Session/People"
import { Effect, Schema } from "effect"

/** The user's people, in id order. */
export const knownPeople = (user: UserId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: UserId,
      Result: Schema.Struct({ person_id: PersonId, name: Schema.String }),
      execute: (u) => sql`SELECT person_id, name FROM people WHERE user_id = ${u} ORDER BY person_id`
    })(user).pipe(Effect.map((rows) => rows.map((r): KnownPerson => ({ personId: r.person_id, name: r.name })))))

/** A user's people as plans, answers and curation resolve owners against them, and as the web pages list them. */
import { SqlClient } from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { Person } from "@verbatim/domain/ApiResponses"
import { PersonId, UserId } from "@verbatim/domain/Ids"
import type { KnownPerson } from "@verbatim/domain/Session/People"
import { Effect, Option, Schema } from "effect"
import { Num } from "./Columns.js"
import { liveNoteCount } from "./Lists.js"

const KnownRow = Schema.Struct({ person_id: PersonId, name: Schema.String, merged_into: Schema.NullOr(PersonId) })

/**
 * The user's people in id order, then the names of people merged into another, each standing for
 * whom it was merged into: a later plan or answer that names a merged person files under the
 * person they joined, and never adds them again.
 */
export const knownPeople = (user: UserId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: UserId,
      Result: KnownRow,
      execute: (u) => sql`SELECT person_id, name, merged_into FROM people WHERE user_id = ${u} ORDER BY person_id`
    })(user).pipe(
      Effect.map((rows): Array<KnownPerson> => [
        ...rows.filter((r) => r.merged_into === null).map((r) => ({ personId: r.person_id, name: r.name })),
        ...rows.flatMap((r) => r.merged_into === null ? [] : [{ personId: r.merged_into, name: r.name, mergedFrom: r.person_id }])
      ])
    ))

const ActiveRow = Schema.Struct({ person_id: PersonId, user_id: UserId, name: Schema.String, note_count: Num })

/** Which people `peopleByActivity` ranks: at most `limit`, only `user`'s when given, only those named in `among` when given. */
export interface ActivityOptions {
  readonly user?: UserId | undefined
  readonly limit: number
  readonly among?: ReadonlyArray<PersonId> | undefined
}

/**
 * SQLite, everyone's people: the index in activity order named, which its planner passes over for
 * `people_merged_into` (it matches `merged_into IS NULL` too) and then sorts every person.
 */
const everyoneOnSqlite = (sql: SqlClient, everyone: boolean) =>
  everyone ? sql.onDialectOrElse({ sqlite: () => sql.literal("INDEXED BY people_active"), orElse: () => sql.literal("") }) : sql.literal("")

/**
 * People not merged away, the one with the newest note (or newest added) first, at most `limit`:
 * in order from the index of their kept activity (`people_user_active`, everyone's `people_active`).
 */
export const peopleByActivity = (options: ActivityOptions) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: Schema.Struct({ user: Schema.UndefinedOr(UserId), limit: Schema.Number, among: Schema.UndefinedOr(Schema.Array(PersonId)) }),
      Result: ActiveRow,
      execute: ({ among, limit, user }) =>
        sql`SELECT p.person_id, p.user_id, p.name, ${sql.literal(liveNoteCount)} AS note_count
      FROM people p ${everyoneOnSqlite(sql, user === undefined && among === undefined)}
      WHERE p.merged_into IS NULL AND ${user === undefined ? sql`1 = 1` : sql`p.user_id = ${user}`}
        AND ${among === undefined ? sql`1 = 1` : sql.in("p.person_id", among)}
      ORDER BY p.active DESC, p.person_id LIMIT ${limit}`
    })({ user: options.user, limit: options.limit, among: options.among }).pipe(
      Effect.map((rows) => rows.map((r): Person => ({ id: r.person_id, user: r.user_id, name: r.name, noteCount: r.note_count })))
    ))

/** Every person not merged away, by id, with their name alone: what finding by name looks through. Only `user`'s when given. */
export const peopleNamed = (user: UserId | undefined) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: Schema.UndefinedOr(UserId),
      Result: Schema.Struct({ person_id: PersonId, name: Schema.String }),
      execute: (u) =>
        sql`SELECT person_id, name FROM people WHERE merged_into IS NULL AND ${u === undefined ? sql`1 = 1` : sql`user_id = ${u}`}
          ORDER BY person_id`
    })(user).pipe(Effect.map((rows) => rows.map((r) => ({ id: r.person_id, name: r.name })))))

/** Whom a person was merged into, when they were. */
export const mergedInto = (personId: PersonId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findOne({
      Request: PersonId,
      Result: Schema.Struct({ merged_into: Schema.NullOr(PersonId) }),
      execute: (id) => sql`SELECT merged_into FROM people WHERE person_id = ${id}`
    })(personId).pipe(Effect.map(Option.flatMap((row) => Option.fromNullable(row.merged_into)))))

/** A person's names before renames, and the people merged into them (with theirs), in the order they were added. */
export interface PersonNames {
  readonly formerNames: ReadonlyArray<string>
  readonly mergedIn: ReadonlyArray<{ readonly id: PersonId; readonly name: string; readonly formerNames: ReadonlyArray<string> }>
}

const NamesRow = Schema.Struct({ person_id: PersonId, name: Schema.String, former_names: Schema.NullOr(Schema.String) })

const formerOf = (row: typeof NamesRow.Type) => (row.former_names === null || row.former_names === "" ? [] : row.former_names.split("\n"))

/** The names `personId` and the people merged into them were known by (`merged_into` always names whom a chain of merges left). */
export const personNames = (personId: PersonId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: PersonId,
      Result: NamesRow,
      execute: (id) =>
        sql`SELECT person_id, name, former_names FROM people
      WHERE person_id = ${id} OR merged_into = ${id} ORDER BY position, person_id`
    })(personId).pipe(
      Effect.map((rows): PersonNames => ({
        formerNames: rows.filter((r) => r.person_id === personId).flatMap(formerOf),
        mergedIn: rows.filter((r) => r.person_id !== personId).map((r) => ({ id: r.person_id, name: r.name, formerNames: formerOf(r) }))
      }))
    ))

/**
 * A user's people, and owners resolved against them: a contact id of theirs, else the name
 * (trimmed, case-insensitive, in JavaScript's sense for every script), else a new person. The
 * plan job and answers resolve alike, so one name never becomes two people.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import type { Owner } from "@verbatim/domain/Decision"
import type { Event } from "@verbatim/domain/Events"
import type { PersonId, UserId } from "@verbatim/domain/Ids"
import { Effect } from "effect"
import { IdGenerator } from "./IdGenerator.js"

/** A person of the user's. */
export interface KnownPerson {
  readonly personId: PersonId
  readonly name: string
}

/** The user's people, in id order. */
export const knownPeople = (user: UserId) =>
  Effect.flatMap(SqlClient, (sql) =>
    sql<{ person_id: string; name: string }>`SELECT person_id, name FROM people WHERE user_id = ${user} ORDER BY person_id`.pipe(
      Effect.map((rows) => rows.map((r): KnownPerson => ({ personId: r.person_id as PersonId, name: r.name })))
    ))

const nameKey = (name: string) => name.trim().toLowerCase()

/**
 * Resolves owners to the user's people; `added` holds the `PersonAdded` events of new ones. A
 * contact id that is not one of the user's is ignored (the name decides), so another user's id is
 * never recorded.
 */
export const resolver = (known: ReadonlyArray<KnownPerson>, user: UserId) => {
  const byId = new Map(known.map((p) => [p.personId as string, p.personId]))
  const byName = new Map<string, PersonId>()
  for (const p of known) if (!byName.has(nameKey(p.name))) byName.set(nameKey(p.name), p.personId)
  const added: Array<Event> = []
  /** The owner as recorded: a contact id only when it is one of the user's. */
  const owner = (given: Owner): Owner =>
    given._tag === "Person" && given.contactId !== null && !byId.has(given.contactId) ? { ...given, contactId: null } : given
  const resolve = Effect.fn("People.resolve")(function*(given: Owner) {
    if (given._tag === "Unattached") return null
    const listed = given.contactId === null ? undefined : byId.get(given.contactId)
    if (listed !== undefined) return listed
    const named = byName.get(nameKey(given.name))
    if (named !== undefined) return named
    const personId = (yield* Effect.flatMap(IdGenerator, (ids) => ids.next("person"))) as PersonId
    byName.set(nameKey(given.name), personId)
    added.push({ _tag: "PersonAdded", personId, user, name: given.name.trim() })
    return personId
  })
  return { resolve, owner, added }
}

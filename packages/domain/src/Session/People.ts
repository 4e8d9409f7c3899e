/**
 * A user's people, and owners resolved against them: a contact id of theirs, else the name
 * (trimmed, case-insensitive, in JavaScript's sense for every script), else a new person. Plans
 * and answers resolve alike, so one name never becomes two people.
 */
import type { Owner } from "../Decision.js"
import type { Event } from "../Events.js"
import { type IdSupply, PersonId, type UserId } from "../Ids.js"
import { notTextIn } from "../Inbound/bodyShape.js"

/** A person of the user's; or, with `mergedFrom`, the name and id of one merged into them. */
export interface KnownPerson {
  readonly personId: PersonId
  readonly name: string
  readonly mergedFrom?: PersonId
}

/**
 * Why a name given by hand cannot be a person's name: empty, or holding what the store cannot
 * keep exactly (U+0000, a lone surrogate); `null` when it can be.
 */
export const nameProblem = (name: string): string | null => {
  if (name.trim() === "") return "a person's name must not be empty"
  const found = notTextIn(name)
  return found === null ? null : `the name contains ${found}, which is not text`
}

/** The key two names share when they name one person. */
export const nameKey = (name: string): string => name.trim().toLowerCase()

/**
 * Resolves owners to the user's people; `added` holds the `PersonAdded` events of new ones. A
 * contact id that is not one of the user's is ignored (the name decides), so another user's id is
 * never recorded.
 */
export const resolver = (known: ReadonlyArray<KnownPerson>, user: UserId, ids: IdSupply) => {
  // A merged person's id stands for whom they joined: a correction made before the merge still finds them.
  const byId = new Map(known.flatMap((p) => [[p.personId as string, p.personId] as const, ...(p.mergedFrom === undefined ? [] : [[p.mergedFrom as string, p.personId] as const])]))
  const byName = new Map<string, PersonId>()
  for (const p of known) if (!byName.has(nameKey(p.name))) byName.set(nameKey(p.name), p.personId)
  const added: Array<Event> = []
  /** The owner as recorded: a contact id only when it is one of the user's (a merged one's stands for whom they joined). */
  const owner = <O extends Owner>(given: O): O =>
    given._tag === "Person" && given.contactId !== null ? { ...given, contactId: byId.get(given.contactId) ?? null } : given
  const resolve = (given: Owner): PersonId | null => {
    if (given._tag === "Unattached") return null
    const listed = given.contactId === null ? undefined : byId.get(given.contactId)
    if (listed !== undefined) return listed
    const named = byName.get(nameKey(given.name))
    if (named !== undefined) return named
    const personId = PersonId.make(ids.next("person"))
    byName.set(nameKey(given.name), personId)
    added.push({ _tag: "PersonAdded", personId, user, name: given.name.trim() })
    return personId
  }
  return { resolve, owner, added }
}

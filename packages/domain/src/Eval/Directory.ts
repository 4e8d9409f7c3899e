/**
 * A user's people as the log leaves them: every name a person ever had (added, renamed) finds
 * them, and a merged person stands for whom they were merged into. Labels and scores compare
 * people through it, so a rename or a merge after the plan does not read as a different person.
 */
import type { Owner } from "../Decision.js"
import type { Event } from "../Events.js"
import type { PersonId } from "../Ids.js"
import * as People from "../People/Decide.js"
import { nameKey } from "../Session/People.js"

/** Where a message ended up: a person (`personId` null for one the user does not have), the sender's own notes, or the bot. */
export type Target =
  | { readonly _tag: "Person"; readonly personId: PersonId | null; readonly name: string }
  | { readonly _tag: "Unattached" }
  | { readonly _tag: "Bot" }

export interface Directory {
  /** The person a person id stands for now (itself unless merged away). */
  readonly root: (personId: PersonId) => PersonId
  /** The current name of a person's root. */
  readonly name: (personId: PersonId) => string
  /** A person by any name they ever had, as their root. */
  readonly named: (name: string) => PersonId | undefined
  /** Whether the user has this person. */
  readonly has: (personId: string) => personId is PersonId
}

/** The directory of the people events given (one user's `PersonAdded`, `PersonRenamed`, `PeopleMerged`, `PeopleUnmerged`). */
export const make = (events: Iterable<Event>): Directory => {
  const names = new Map<PersonId, string>()
  const byName = new Map<string, PersonId>()
  let merges = People.initialState
  for (const event of events) {
    if (event._tag === "PersonAdded" || event._tag === "PersonRenamed") {
      names.set(event.personId, event.name)
      if (!byName.has(nameKey(event.name))) byName.set(nameKey(event.name), event.personId)
    } else merges = People.evolve(merges, event)
  }
  const root = (personId: PersonId): PersonId => People.liveOf(merges, personId)
  const named = (name: string) => {
    const found = byName.get(nameKey(name))
    return found === undefined ? undefined : root(found)
  }
  return { root, name: (personId) => names.get(root(personId)) ?? "", named, has: (id): id is PersonId => names.has(id as PersonId) }
}

/** A person's target: their root and its current name. */
export const personTarget = (directory: Directory, personId: PersonId): Target => {
  const root = directory.root(personId)
  return { _tag: "Person", personId: root, name: directory.name(root) }
}

/**
 * An owner a plan (or an answer) names, resolved as the resolver files it: the contact id when it
 * is one of the user's, else the name, else a person the user does not have.
 */
export const resolveOwner = (directory: Directory, owner: Owner): Target => {
  if (owner._tag === "Unattached") return owner
  if (owner.contactId !== null && directory.has(owner.contactId)) return personTarget(directory, owner.contactId)
  const named = directory.named(owner.name)
  return named === undefined ? { _tag: "Person", personId: null, name: owner.name.trim() } : personTarget(directory, named)
}

/** Whether two targets are the same place (people by id; a person the user does not have by name). */
export const sameTarget = (a: Target, b: Target): boolean => {
  if (a._tag !== "Person" || b._tag !== "Person") return a._tag === b._tag
  return a.personId !== null || b.personId !== null ? a.personId === b.personId : nameKey(a.name) === nameKey(b.name)
}

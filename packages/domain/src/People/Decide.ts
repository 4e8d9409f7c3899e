/**
 * The people decider: a user's people renamed, merged and unmerged, on the user's people stream.
 * People are added where they are first named (a plan or an answer in a session's stream), so each
 * command carries the user's people as the read model lists them; the stream's own fold keeps what
 * it has already merged, so a merge sent twice, or two at once, merges once.
 *
 * An unmerge undoes one person's merge, whichever came first in a chain: any person merged away
 * (directly, or into someone merged away since) may be unmerged, alone. They come back with the
 * notes that were theirs, which are the notes filed under them or under anyone still merged into
 * them; whoever they had been merged into keeps the rest, those filed under it after the merge
 * included. So with Anna merged into Ana and Ana into Ann: unmerging Ana gives Ana her notes and
 * Anna's (Anna stays merged into Ana); unmerging Anna instead gives Anna hers alone, Ana staying in Ann.
 */
import { Either, type DateTime } from "effect"
import type { Event } from "../Events.js"
import type { PersonId, UserId } from "../Ids.js"
import { type Decision, type Rejected, rejected } from "../Session/Commands.js"
import type { Decider } from "../Decider.js"
import { type KnownPerson, nameKey, nameProblem } from "../Session/People.js"

export interface PeopleState {
  /** People folded into another, and whom into. */
  readonly merged: ReadonlyMap<PersonId, PersonId>
}

export const initialState: PeopleState = { merged: new Map() }

export const evolve = (state: PeopleState, event: Event): PeopleState => {
  if (event._tag === "PeopleMerged") return { merged: new Map(state.merged).set(event.from, event.into) }
  if (event._tag !== "PeopleUnmerged") return state
  const merged = new Map(state.merged)
  merged.delete(event.personId)
  return { merged }
}

/** The person `personId` is filed under now: the end of its chain of merges (a chain never loops). */
export const liveOf = (state: PeopleState, personId: PersonId): PersonId => {
  let at = personId
  for (let hops = 0; state.merged.has(at) && hops <= state.merged.size; hops++) at = state.merged.get(at)!
  return at
}

interface Common {
  /** Whose people these are. */
  readonly user: UserId
  /** The user answering for themselves; `null` for the operator. */
  readonly asker: UserId | null
  /** The user's people as listed (merged ones left out). */
  readonly known: ReadonlyArray<KnownPerson>
  readonly now: DateTime.Utc
}

export type PeopleCommand =
  | Common & { readonly _tag: "Rename"; readonly personId: PersonId; readonly name: string }
  | Common & { readonly _tag: "Merge"; readonly from: PersonId; readonly into: PersonId }
  | Common & { readonly _tag: "Unmerge"; readonly personId: PersonId }

const person = (state: PeopleState, command: Common, personId: PersonId) => {
  if (command.asker !== null && command.asker !== command.user) return Either.left(rejected("not-yours"))
  const found = command.known.find((p) => p.personId === personId)
  return found === undefined || state.merged.has(personId) ? Either.left(rejected("not-found", `no person ${personId}`)) : Either.right(found)
}

const rename = (state: PeopleState, command: PeopleCommand & { readonly _tag: "Rename" }): Decision =>
  Either.flatMap(person(state, command, command.personId), (found): Decision => {
    const name = command.name.trim()
    const problem = nameProblem(name)
    if (problem !== null) return Either.left(rejected("invalid", problem))
    if (name === found.name) return Either.left(rejected("unchanged", `already called ${name}`))
    const other = command.known.find((p) => p.personId !== found.personId && nameKey(p.name) === nameKey(name))
    if (other !== undefined) return Either.left(rejected("invalid", `${other.name} is another person: merge them instead`))
    return Either.right([{ _tag: "PersonRenamed", personId: found.personId, user: command.user, name, renamedAt: command.now }])
  })

const merge = (state: PeopleState, command: PeopleCommand & { readonly _tag: "Merge" }): Decision =>
  Either.flatMap(person(state, command, command.from), (from): Decision =>
    Either.flatMap(person(state, command, command.into), (into): Decision =>
      from.personId === into.personId
        ? Either.left(rejected("invalid", "a person cannot be merged into themselves"))
        : Either.right([{ _tag: "PeopleMerged", user: command.user, from: from.personId, into: into.personId, mergedAt: command.now }])))

/** Only a person merged away is unmerged; one of the user's not merged is unchanged, anyone else's not found. */
const unmerge = (state: PeopleState, command: PeopleCommand & { readonly _tag: "Unmerge" }): Decision => {
  if (command.asker !== null && command.asker !== command.user) return Either.left(rejected("not-yours"))
  const { personId } = command
  if (!state.merged.has(personId)) {
    const own = command.known.find((p) => p.personId === personId && p.mergedFrom === undefined)
    return Either.left(own === undefined ? rejected("not-found", `no person ${personId}`) : rejected("unchanged", `${own.name} is not merged into anyone`))
  }
  return Either.right([{ _tag: "PeopleUnmerged", user: command.user, personId, from: liveOf(state, personId), unmergedAt: command.now }])
}

export const decide = (state: PeopleState, command: PeopleCommand): Decision => {
  switch (command._tag) {
    case "Rename":
      return rename(state, command)
    case "Merge":
      return merge(state, command)
    case "Unmerge":
      return unmerge(state, command)
  }
}

/** The people decider as a value, for the runner and the specifications. */
export const peopleDecider: Decider<PeopleState, PeopleCommand, Event, Rejected> = { decide, evolve, initialState }

/** Who a plan entry speaks for: owner identity, canonical names, and the order candidates are offered in. */
import type { Candidate, Owner } from "../Decision.js"
import { compareStrings } from "../Order.js"

/** The identity key of the `unattached` owner. */
export const unattachedKey = "u"

/**
 * The identity key of a person: the contact id when there is one, otherwise the name trimmed
 * and lower-cased, so "Alice" and " alice" are one person.
 */
export const personKey = (contactId: string | null, name: string): string =>
  contactId !== null ? `c:${contactId}` : `n:${name.trim().toLowerCase()}`

/** The key of any owner or candidate. */
export const ownerKey = (owner: Owner | Candidate): string =>
  owner._tag === "Unattached" ? unattachedKey : personKey(owner.contactId, owner.name)

const sortKey = (candidate: Candidate): string =>
  candidate._tag === "Unattached"
    ? "2"
    : candidate.contactId !== null
    ? `0${candidate.contactId}\u0000${candidate.name}`
    : `1${candidate.name}`

/**
 * Candidates with one entry per identity (the smallest trimmed name wins, whatever the plan
 * order), sorted: contacts, then new names, then unattached.
 */
export const canonicalCandidates = (candidates: ReadonlyArray<Candidate>): Array<Candidate> => {
  const byKey = new Map<string, Candidate>()
  for (const raw of candidates) {
    const candidate: Candidate = raw._tag === "Person"
      ? { _tag: "Person", contactId: raw.contactId, name: raw.name.trim() }
      : raw
    const key = ownerKey(candidate)
    const seen = byKey.get(key)
    if (seen === undefined || (seen._tag === "Person" && candidate._tag === "Person" && candidate.name < seen.name)) {
      byKey.set(key, candidate)
    }
  }
  return [...byKey.values()].sort((a, b) => compareStrings(sortKey(a), sortKey(b)))
}

/** The one owner for a key, named by the smallest trimmed name any plan entry gave it. */
export const canonicalOwner = (owners: ReadonlyArray<Owner>): Owner | undefined => canonicalCandidates(owners)[0]

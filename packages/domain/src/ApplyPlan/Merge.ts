/** Merging within one owner: plan entries sharing a slot become one group, transitively, whatever their order. */
import type { SlotAccounting } from "./Accounting.js"
import * as Attribution from "./Attribution.js"
import type { Candidate, Owner } from "../Decision.js"
import { canonicalCandidates, canonicalOwner, personKey, unattachedKey } from "./Owners.js"
import type { Plan, PlanNote } from "../Plan.js"
import type { SlotIndex } from "./SlotIndex.js"
import { bySlot, sortRange } from "../SortRange.js"
import type { WarningLog } from "../WarningLog.js"

/** One owner's merged notes, or one merged `unclear` entry: a single claimant of its slots (ascending). */
export type Group =
  | {
    readonly kind: "note"
    readonly key: string
    readonly owner: Owner
    readonly claims: ReadonlyArray<Attribution.SlotClaim>
    readonly slots: ReadonlyArray<number>
  }
  | {
    readonly kind: "unclear"
    readonly key: string
    readonly candidates: ReadonlyArray<Candidate>
    readonly slots: ReadonlyArray<number>
  }

interface Claim {
  readonly slots: ReadonlyArray<number>
}

/** Merges claims over a session of `size` slots; `stamp` marks which call last saw a slot, so no call clears it. */
const makeMerger = (size: number) => {
  const stamp = new Int32Array(size)
  const firstClaim = new Int32Array(size)
  let pass = 0
  /** Groups claims sharing a slot (union-find), in the claims' relative order; claims without slots join none. */
  const merge = <A extends Claim>(claims: ReadonlyArray<A>): Array<Array<A>> => {
    if (claims.length === 1) return claims[0]!.slots.length === 0 ? [] : [[claims[0]!]]
    pass++
    const parent = new Int32Array(claims.length)
    for (let i = 0; i < claims.length; i++) parent[i] = i
    const root = (i: number): number => {
      while (parent[i] !== i) {
        parent[i] = parent[parent[i]!]!
        i = parent[i]!
      }
      return i
    }
    for (let i = 0; i < claims.length; i++) {
      for (const slot of claims[i]!.slots) {
        if (stamp[slot] !== pass) {
          stamp[slot] = pass
          firstClaim[slot] = i
        } else parent[root(i)] = root(firstClaim[slot]!)
      }
    }
    // Numbered and counted first, so each group's list is allocated at its final size.
    const groupOf = new Int32Array(claims.length).fill(-1)
    const filled = new Int32Array(claims.length)
    let count = 0
    for (let i = 0; i < claims.length; i++) {
      if (claims[i]!.slots.length === 0) continue
      const r = root(i)
      if (groupOf[r] === -1) groupOf[r] = count++
      filled[groupOf[r]!]!++
    }
    const groups = new Array<Array<A>>(count)
    for (let g = 0; g < count; g++) {
      groups[g] = new Array<A>(filled[g]!)
      filled[g] = 0
    }
    for (let i = 0; i < claims.length; i++) {
      if (claims[i]!.slots.length === 0) continue
      const g = groupOf[root(i)]!
      groups[g]![filled[g]!++] = claims[i]!
    }
    return groups
  }
  /** The slots of merged claims, ascending and distinct (one claim's slots as they are). */
  const union = (claims: ReadonlyArray<Claim>): ReadonlyArray<number> => {
    if (claims.length === 1) return claims[0]!.slots
    pass++
    let total = 0
    for (const claim of claims) total += claim.slots.length
    // Sized for every listed slot, then cut to the distinct ones.
    const slots = new Array<number>(total)
    let count = 0
    let ascending = true
    for (const claim of claims) {
      for (const slot of claim.slots) {
        if (stamp[slot] === pass) continue
        stamp[slot] = pass
        if (count > 0 && slots[count - 1]! > slot) ascending = false
        slots[count++] = slot
      }
    }
    slots.length = count
    if (!ascending) sortRange(slots, 0, count, bySlot)
    return slots
  }
  return { merge, union }
}

/**
 * Every claimant of a plan: each owner's notes accounted for, attributed and merged (one
 * group per merged note), then the `unclear` entries merged. Owners are keyed so that people
 * named alike are one owner; each group is named by the smallest name given.
 */
export const groups = (
  plan: Plan,
  index: SlotIndex,
  accounting: SlotAccounting,
  attributions: Attribution.Attributions,
  warnings: WarningLog
): Array<Group> => {
  const byOwner = new Map<string, { owners: Array<Owner>; claims: Array<Attribution.SlotClaim> }>()
  const addNotes = (key: string, owner: Owner, notes: ReadonlyArray<PlanNote>) => {
    if (notes.length === 0) return
    const entry = byOwner.get(key) ?? { owners: [], claims: [] }
    entry.owners.push(owner)
    for (const note of notes) {
      const slots = accounting.known(note.sourceItemSeqs)
      entry.claims.push(Attribution.claim(attributions, index, slots, note.directives, warnings))
    }
    byOwner.set(key, entry)
  }
  for (const person of plan.people) {
    addNotes(personKey(person.contactId, person.name), { _tag: "Person", contactId: person.contactId, name: person.name }, person.notes)
  }
  addNotes(unattachedKey, { _tag: "Unattached" }, plan.unattached)

  const { merge, union } = makeMerger(index.seqs.length)
  const groups: Array<Group> = []
  byOwner.forEach((entry, key) => {
    const owner = canonicalOwner(entry.owners)!
    for (const claims of merge(entry.claims)) groups.push({ kind: "note", key, owner, claims, slots: union(claims) })
  })
  const unclear = plan.unclear.map((entry) => ({ slots: accounting.known(entry.sourceItemSeqs), names: entry.candidates }))
  for (const entries of merge(unclear)) {
    const slots = union(entries)
    const candidates = canonicalCandidates(
      entries.flatMap((entry) => entry.names).filter((name) => name.trim().length > 0)
        .map((name): Candidate => ({ _tag: "Person", contactId: null, name }))
    )
    groups.push({ kind: "unclear", key: `?${index.seqs[slots[0]!]}`, candidates, slots })
  }
  return groups
}

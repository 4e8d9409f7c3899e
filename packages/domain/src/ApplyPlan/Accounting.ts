/** Accounting: which plan entries claim which seqs, counted per claimant, and which of them the session really has. */
import type { Plan } from "../Plan.js"
import type { SlotIndex } from "./SlotIndex.js"
import { bySlot, sortRange } from "../SortRange.js"
import { compareNumbers } from "../Order.js"

/** Every plan entry that claims seqs: each note, each `unclear` entry, and the `botMessages` list. */
export const claimedSeqLists = (plan: Plan): Array<ReadonlyArray<number>> => [
  ...plan.people.flatMap((person) => person.notes.map((note) => note.sourceItemSeqs)),
  ...plan.unattached.map((note) => note.sourceItemSeqs),
  ...plan.unclear.map((entry) => entry.sourceItemSeqs),
  plan.botMessages
]

/** -0 and 0 are one seq; normalising keeps output independent of which the plan wrote first. */
const normalise = (seq: number): number => (seq === 0 ? 0 : seq)

/**
 * Seqs with more than one claimant, ascending. Claimants are counted, not collected in a Set:
 * two notes listing the same seq are two claimants (one note listing it twice is one).
 */
export const duplicatePlanSeqs = (plan: Plan): Array<number> => {
  const counts = new Map<number, number>()
  for (const seqs of claimedSeqLists(plan)) {
    for (const seq of new Set(seqs.map(normalise))) counts.set(seq, (counts.get(seq) ?? 0) + 1)
  }
  return [...counts].filter(([, count]) => count > 1).map(([seq]) => seq).sort(compareNumbers)
}

/** Plan seqs read as a session's slots, with every seq the session does not have recorded. */
export interface SlotAccounting {
  /**
   * The slots of the seqs the session has, ascending and distinct; the others are recorded as
   * unknown. NaN never equals itself, so a NaN seq listed twice stays listed twice (and so
   * contests its own note), as it always has.
   */
  readonly known: (seqs: ReadonlyArray<number>) => Array<number>
  /** Every unknown seq met so far, ascending. */
  readonly unknown: () => Array<number>
}

/** Accounts plan seqs against a session's slots. */
export const accountFor = (index: SlotIndex): SlotAccounting => {
  const unknown = new Set<number>()
  const last = index.seqs.length - 1
  const nanSlot = last >= 0 && Number.isNaN(index.seqs[last]) ? last : -1
  return {
    known: (seqs) => {
      // Sized for every seq at once (plans rarely list unknown ones) rather than grown.
      const found = new Array<number>(seqs.length)
      let count = 0
      let ascending = true
      for (let i = 0; i < seqs.length; i++) {
        const seq = seqs[i]!
        const slot = index.slotOf(seq)
        if (slot === -1) unknown.add(normalise(seq))
        else {
          if (count > 0 && found[count - 1]! >= slot) ascending = false
          found[count++] = slot
        }
      }
      found.length = count
      // Plans usually list seqs ascending and once: skip the sort when they do.
      if (ascending) return found
      sortRange(found, 0, found.length, bySlot)
      let kept = 1
      for (let i = 1; i < found.length; i++) {
        if (found[i] !== found[kept - 1] || found[i] === nanSlot) found[kept++] = found[i]!
      }
      found.length = kept
      return found
    },
    unknown: () => [...unknown].sort(compareNumbers)
  }
}

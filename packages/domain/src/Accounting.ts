/** Accounting: which plan entries claim which seqs, counted per claimant, and which seqs the session really has. */
import type { MessageText } from "./Message.js"
import type { Plan } from "./Plan.js"
import { compareNumbers } from "./Warnings.js"

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

/** A session's messages by seq, and a filter that keeps only the seqs it has. */
export interface Session {
  readonly bySeq: ReadonlyMap<number, MessageText>
  /** Every seq of the session, ascending. */
  readonly seqs: ReadonlyArray<number>
  /** The seqs the session has, deduplicated and ascending; the others are recorded as unknown. */
  readonly known: (seqs: ReadonlyArray<number>) => Array<number>
  /** Every unknown seq met so far, ascending. */
  readonly unknown: () => Array<number>
}

/** Indexes a session (the first message wins a repeated seq) and tracks unknown seqs. */
export const makeSession = (messages: ReadonlyArray<MessageText>): Session => {
  const bySeq = new Map<number, MessageText>()
  for (const message of messages) if (!bySeq.has(message.seq)) bySeq.set(message.seq, message)
  const unknown = new Set<number>()
  return {
    bySeq,
    seqs: [...bySeq.keys()].sort(compareNumbers),
    known: (seqs) => {
      const found: Array<number> = []
      for (const seq of seqs) {
        if (bySeq.has(seq)) found.push(normalise(seq))
        else unknown.add(normalise(seq))
      }
      // Plans usually list seqs ascending and once: skip the sort (which allocates) when they do.
      if (found.every((seq, i) => i === 0 || found[i - 1]! < seq)) return found
      found.sort(compareNumbers)
      return found.filter((seq, i) => i === 0 || found[i - 1] !== seq)
    },
    unknown: () => [...unknown].sort(compareNumbers)
  }
}

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

/**
 * A session indexed by position: slot `i` is the `i`-th distinct seq in ascending order, so
 * sorting slots sorts seqs. Only for sessions whose seqs are integers in a range at most a few
 * times the message count (every session the planner numbers): seqs index a table directly.
 */
export interface SlotIndex {
  /** The message of each slot (the first with that seq). */
  readonly messages: ReadonlyArray<MessageText>
  /** The seq of each slot, ascending. */
  readonly seqs: ReadonlyArray<number>
  /** The slot of a seq, or -1 when the session does not have it. */
  readonly slotOf: (seq: number) => number
}

/** Indexes a session by slot, or `undefined` when its seqs are not dense integers. */
export const makeSlotIndex = (messages: ReadonlyArray<MessageText>): SlotIndex | undefined => {
  if (messages.length === 0) return undefined
  let min = Infinity
  let max = -Infinity
  for (const message of messages) {
    const seq = message.seq
    if (!Number.isInteger(seq)) return undefined
    if (seq < min) min = seq
    if (seq > max) max = seq
  }
  const range = max - min + 1
  if (range > 4 * messages.length + 64) return undefined
  const table = new Int32Array(range).fill(-1)
  for (let i = 0; i < messages.length; i++) {
    const offset = messages[i]!.seq - min
    if (table[offset] === -1) table[offset] = i
  }
  const bySlot: Array<MessageText> = []
  const seqs: Array<number> = []
  for (let offset = 0; offset < range; offset++) {
    const i = table[offset]!
    if (i === -1) continue
    table[offset] = bySlot.length
    bySlot.push(messages[i]!)
    seqs.push(normalise(messages[i]!.seq))
  }
  return {
    messages: bySlot,
    seqs,
    slotOf: (seq) => {
      const offset = seq - min
      return offset >= 0 && offset < range && Math.floor(offset) === offset ? table[offset]! : -1
    }
  }
}

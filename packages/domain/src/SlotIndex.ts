/** SlotIndex: a session's messages in seq order, slot 0..n-1, and the one lookup from a plan seq to its slot. */
import type { MessageText } from "./Message.js"
import { compareNumbers } from "./Warnings.js"

/**
 * A session indexed by position: slot `i` holds the `i`-th distinct seq in ascending order
 * (`compareNumbers`, so NaN last), so sorting slots sorts seqs. A repeated seq keeps its first
 * message in input order; the others are not part of the session.
 */
export interface SlotIndex {
  /** The message of each slot. */
  readonly messages: ReadonlyArray<MessageText>
  /** The seq of each slot, ascending, with -0 read as 0. */
  readonly seqs: ReadonlyArray<number>
  /** The slot of a seq, or -1 when the session does not have it. */
  readonly slotOf: (seq: number) => number
}

/** Integer seqs in a range at most a few times the message count (every session the planner numbers) index a table. */
const dense = (messages: ReadonlyArray<MessageText>, min: number, range: number): SlotIndex => {
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
    seqs.push(offset + min)
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

/** Any other seqs (sparse, fractional, negative, infinite, NaN) go through a Map, which reads -0 as 0 and finds NaN. */
const sparse = (messages: ReadonlyArray<MessageText>): SlotIndex => {
  const slots = new Map<number, number>()
  for (let i = 0; i < messages.length; i++) if (!slots.has(messages[i]!.seq)) slots.set(messages[i]!.seq, i)
  const seqs = [...slots.keys()].sort(compareNumbers)
  const bySlot: Array<MessageText> = []
  for (const seq of seqs) {
    bySlot.push(messages[slots.get(seq)!]!)
    slots.set(seq, bySlot.length - 1)
  }
  return { messages: bySlot, seqs, slotOf: (seq) => slots.get(seq) ?? -1 }
}

/** Indexes a session by slot, with a table lookup when its seqs allow one and a Map otherwise. */
export const make = (messages: ReadonlyArray<MessageText>): SlotIndex => {
  let min = Infinity
  let max = -Infinity
  for (const message of messages) {
    const seq = message.seq
    if (!Number.isInteger(seq)) return sparse(messages)
    if (seq < min) min = seq
    if (seq > max) max = seq
  }
  const range = max - min + 1
  return messages.length > 0 && range <= 4 * messages.length + 64 ? dense(messages, min, range) : sparse(messages)
}

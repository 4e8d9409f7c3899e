/** SlotIndex: a session's messages in seq order, slot 0..n-1, and the one lookup from a plan seq to its slot. */
import type { MessageId } from "../Ids.js"
import type { MessageText } from "../Message.js"
import { compareNumbers } from "../Order.js"

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
const dense = (messages: ReadonlyArray<MessageText>, min: number, range: number, ascending: boolean): SlotIndex => {
  const table = new Int32Array(range).fill(-1)
  let count = 0
  for (let i = 0; i < messages.length; i++) {
    const offset = messages[i]!.seq - min
    if (table[offset] === -1) {
      table[offset] = i
      count++
    }
  }
  // Messages already in strictly ascending seq order (as sessions are stored) are their own slot order.
  const bySlot: Array<MessageText> | ReadonlyArray<MessageText> = ascending ? messages : new Array<MessageText>(count)
  const seqs = new Array<number>(count)
  for (let offset = 0, slot = 0; offset < range; offset++) {
    const i = table[offset]!
    if (i === -1) continue
    if (!ascending) (bySlot as Array<MessageText>)[slot] = messages[i]!
    seqs[slot] = offset + min
    table[offset] = slot++
  }
  return {
    messages: bySlot,
    seqs,
    slotOf: (seq) => {
      const offset = seq - min
      return Number.isInteger(seq) && offset >= 0 && offset < range ? table[offset]! : -1
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
  let ascending = true
  for (const message of messages) {
    const seq = message.seq
    if (!Number.isInteger(seq)) return sparse(messages)
    if (seq <= max) ascending = false
    if (seq < min) min = seq
    if (seq > max) max = seq
  }
  const range = max - min + 1
  return messages.length > 0 && range <= 4 * messages.length + 64
    ? dense(messages, min, range, ascending)
    : sparse(messages)
}

/** The seqs of some slots, in their order. */
export const seqsOf = (index: SlotIndex, slots: ReadonlyArray<number>): Array<number> => {
  const seqs = new Array<number>(slots.length)
  for (let i = 0; i < slots.length; i++) seqs[i] = index.seqs[slots[i]!]!
  return seqs
}

/** The message ids of some slots, in their order. */
export const idsOf = (index: SlotIndex, slots: ReadonlyArray<number>): Array<MessageId> => {
  const ids = new Array<MessageId>(slots.length)
  for (let i = 0; i < slots.length; i++) ids[i] = index.messages[slots[i]!]!.id
  return ids
}

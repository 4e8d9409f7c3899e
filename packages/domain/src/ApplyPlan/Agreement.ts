/** Agreement on directives: a directive is cut from a message only if every note of the group that claimed the message quoted it there. */
import * as Attribution from "./Attribution.js"
import * as IntList from "../IntList.js"
import type { SlotIndex } from "./SlotIndex.js"
import { sortRange } from "../SortRange.js"
import { findVerbatim } from "./TextMatch.js"
import * as WarningLog from "../WarningLog.js"
import { compareStrings } from "../Order.js"

/**
 * Builds the agreement step for one plan's attributions. The function it returns writes into
 * `agreed` (cleared first) the attributions of a group's claims that every claimant of their
 * slot shares, leaving out contested slots, sorted by slot then text; each disagreement is a
 * `directive-disputed` warning. Counting reuses two tables across groups.
 */
export const makeAgreement = (index: SlotIndex, attributions: Attribution.Attributions) => {
  const { slot: attributedSlot, text: attributedText } = attributions
  const claimants = new Int32Array(index.seqs.length)
  const counted = new Int32Array(index.seqs.length)
  let pass = 0
  const all = IntList.make()
  const byMessageThenText = (a: number, b: number): number =>
    attributedSlot[a]! - attributedSlot[b]! || compareStrings(attributedText[a]!, attributedText[b]!)
  return (
    claims: ReadonlyArray<Attribution.SlotClaim>,
    contestedSlot: Uint8Array,
    agreed: IntList.IntList,
    warnings: WarningLog.WarningLog
  ): void => {
    IntList.clear(agreed)
    if (claims.length === 1) {
      const { from, to } = claims[0]!
      for (let i = from; i < to; i++) if (contestedSlot[attributedSlot[i]!] === 0) IntList.push(agreed, i)
      sortRange(agreed.items, 0, agreed.length, byMessageThenText)
      return
    }
    pass++
    IntList.clear(all)
    for (const claim of claims) {
      for (let k = 0; k < claim.slots.length; k++) {
        const slot = claim.slots[k]!
        // A claim is one claimant however often it lists a slot (only a repeated NaN seq can).
        if (k > 0 && slot === claim.slots[k - 1]) continue
        if (counted[slot] !== pass) {
          counted[slot] = pass
          claimants[slot] = 0
        }
        claimants[slot] = claimants[slot]! + 1
      }
      for (let i = claim.from; i < claim.to; i++) if (contestedSlot[attributedSlot[i]!] === 0) IntList.push(all, i)
    }
    const { items } = all
    sortRange(items, 0, all.length, byMessageThenText)
    for (let i = 0; i < all.length;) {
      const slot = attributedSlot[items[i]!]!
      const text = attributedText[items[i]!]!
      let j = i + 1
      while (j < all.length && attributedSlot[items[j]!] === slot && attributedText[items[j]!] === text) j++
      if (j - i === claimants[slot]) IntList.push(agreed, items[i]!)
      else WarningLog.record(warnings, "directive-disputed", [index.messages[slot]!.seq], text)
      i = j
    }
  }
}

/** True when two of the slots' messages share an id (pairwise up to 32 slots, which allocates nothing; a `Set` beyond). */
export const sharesId = (index: SlotIndex, slots: ReadonlyArray<number>): boolean => {
  if (slots.length > 32) return new Set(slots.map((slot) => index.messages[slot]!.id)).size !== slots.length
  for (let i = 1; i < slots.length; i++) {
    const id = index.messages[slots[i]!]!.id
    for (let j = 0; j < i; j++) if (index.messages[slots[j]!]!.id === id) return true
  }
  return false
}

/**
 * Cuts are addressed by message id, so in a note whose messages share an id, the directives
 * agreed for any of them are cut from the first of them (by seq), once each. One that this
 * message does not hold removes nothing and yields `directive-not-found`; one its own claimants
 * did not all quote removes nothing either (rule 3) and yields `directive-disputed`. Rewrites
 * `agreed` (sorted by slot then text, as it came).
 */
export const pinToFirstWithId = (
  index: SlotIndex,
  attributions: Attribution.Attributions,
  slots: ReadonlyArray<number>,
  agreed: IntList.IntList,
  warnings: WarningLog.WarningLog
): void => {
  const firstWithId = new Map<string, number>()
  for (const slot of slots) if (!firstWithId.has(index.messages[slot]!.id)) firstWithId.set(index.messages[slot]!.id, slot)
  const seen = new Set<string>()
  const pinned: Array<number> = []
  /** `slot:text` of every agreed directive: what each message's own claimants all quoted. */
  const agreedAt = new Set<string>()
  for (let a = 0; a < agreed.length; a++) {
    const i = agreed.items[a]!
    agreedAt.add(`${attributions.slot[i]}:${attributions.text[i]}`)
  }
  for (let a = 0; a < agreed.length; a++) {
    const i = agreed.items[a]!
    const text = attributions.text[i]!
    const target = firstWithId.get(index.messages[attributions.slot[i]!]!.id)!
    const key = `${target}:${text}`
    if (seen.has(key)) continue
    seen.add(key)
    const message = index.messages[target]!
    if (target === attributions.slot[i]) pinned.push(i)
    else {
      const at = findVerbatim(message.text, text)
      if (at === -1) WarningLog.record(warnings, "directive-not-found", [message.seq], text)
      else if (!agreedAt.has(key)) WarningLog.record(warnings, "directive-disputed", [message.seq], text)
      else pinned.push(Attribution.add(attributions, target, text, at))
    }
  }
  const { slot: attributedSlot, text: attributedText } = attributions
  sortRange(pinned, 0, pinned.length, (a, b) =>
    attributedSlot[a]! - attributedSlot[b]! || compareStrings(attributedText[a]!, attributedText[b]!))
  IntList.clear(agreed)
  for (const i of pinned) IntList.push(agreed, i)
}

/** Attribution: each plan note's directives pinned to the first of its messages that holds them verbatim. */
import { type SlotIndex, seqsOf } from "./SlotIndex.js"
import { findVerbatim } from "./TextMatch.js"
import * as WarningLog from "./WarningLog.js"

/**
 * Every attributed directive of a plan, in three flat arrays (one entry per directive, so a
 * large plan allocates three arrays rather than an object each): directive `i` is `text[i]`,
 * found in slot `slot[i]` at UTF-16 offset `at[i]`.
 */
export interface Attributions {
  readonly slot: Array<number>
  readonly text: Array<string>
  readonly at: Array<number>
}

/** A plan note in slot terms: its slots (ascending, distinct) and its attributions `[from, to)`. */
export interface SlotClaim {
  readonly slots: ReadonlyArray<number>
  readonly from: number
  readonly to: number
}

/** An empty set of attributions. */
export const make = (): Attributions => ({ slot: [], text: [], at: [] })

/** Records one more attribution and returns its index. */
export const add = (attributions: Attributions, slot: number, text: string, at: number): number => {
  attributions.slot.push(slot)
  attributions.text.push(text)
  return attributions.at.push(at) - 1
}

/** True when `directives[i]` already occurred earlier in the list (a `Set` decides when the list is long). */
const repeated = (directives: ReadonlyArray<string>, i: number, seen: Set<string> | undefined): boolean =>
  seen === undefined
    ? i > 0 && directives.lastIndexOf(directives[i]!, i - 1) !== -1
    : seen.size === seen.add(directives[i]!).size

/**
 * Attributes each distinct non-empty directive of one plan note to the first of its slots
 * that contains it verbatim. One that matches none of them removes nothing and yields
 * `directive-not-found`, naming the note's seqs.
 */
export const claim = (
  attributions: Attributions,
  index: SlotIndex,
  slots: ReadonlyArray<number>,
  directives: ReadonlyArray<string>,
  warnings: WarningLog.WarningLog
): SlotClaim => {
  const from = attributions.text.length
  if (slots.length > 0 && directives.length > 0) {
    const seen = directives.length > 16 ? new Set<string>() : undefined
    for (let d = 0; d < directives.length; d++) {
      const directive = directives[d]!
      if (directive.length === 0 || repeated(directives, d, seen)) continue
      let found = false
      for (let k = 0; k < slots.length && !found; k++) {
        const at = findVerbatim(index.messages[slots[k]!]!.text, directive)
        if (at !== -1) {
          add(attributions, slots[k]!, directive, at)
          found = true
        }
      }
      if (!found) WarningLog.record(warnings, "directive-not-found", seqsOf(index, slots), directive)
    }
  }
  return { slots, from, to: attributions.text.length }
}

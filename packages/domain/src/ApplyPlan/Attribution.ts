/** Attribution: each plan note's directives pinned to the first of its messages that holds them verbatim. */
import type { Plan } from "../Plan.js"
import { type SlotIndex, seqsOf } from "./SlotIndex.js"
import { findVerbatim } from "./TextMatch.js"
import * as WarningLog from "../WarningLog.js"

/**
 * Every attributed directive of a plan, in three flat lists sized once (one entry per
 * directive, so a large plan allocates three lists rather than an object each): directive `i`
 * (`i < count`) is `text[i]`, found in slot `slot[i]` at UTF-16 offset `at[i]`.
 */
export interface Attributions {
  count: number
  readonly slot: Int32Array
  readonly text: Array<string>
  readonly at: Int32Array
}

/** A plan note in slot terms: its slots (ascending, distinct) and its attributions `[from, to)`. */
export interface SlotClaim {
  readonly slots: ReadonlyArray<number>
  readonly from: number
  readonly to: number
}

/**
 * An empty set of attributions for a plan quoting `directives` directives in all. `claim`
 * records at most one per directive, and pinning (`Agreement.pinToFirstWithId`) at most one
 * per attribution a group agreed on, each group once, so twice that many always fit.
 */
export const make = (directives: number): Attributions => ({
  count: 0,
  slot: new Int32Array(2 * directives),
  text: new Array<string>(directives),
  at: new Int32Array(2 * directives)
})

/** How many directives a plan's notes quote in all, counting repeats and empty ones. */
export const directiveCount = (plan: Plan): number => {
  let count = 0
  for (const person of plan.people) for (const note of person.notes) count += note.directives.length
  for (const note of plan.unattached) count += note.directives.length
  return count
}

/** Records one more attribution and returns its index. */
export const add = (attributions: Attributions, slot: number, text: string, at: number): number => {
  const i = attributions.count++
  attributions.slot[i] = slot
  attributions.text[i] = text
  attributions.at[i] = at
  return i
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
  const from = attributions.count
  if (slots.length > 0 && directives.length > 0) {
    const seen = directives.length > 16 ? new Set<string>() : undefined
    // The note's seqs, listed once for all its `directive-not-found` warnings, which share them.
    let seqs: Array<number> | undefined
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
      if (!found) WarningLog.record(warnings, "directive-not-found", seqs ??= seqsOf(index, slots), directive)
    }
  }
  return { slots, from, to: attributions.count }
}

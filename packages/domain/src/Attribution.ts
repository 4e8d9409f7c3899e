/** Attribution: each plan note's directives pinned to the first of its messages that holds them verbatim. */
import type { PlanWarning } from "./Decision.js"
import type { SlotIndex } from "./SlotIndex.js"
import { findVerbatim } from "./TextMatch.js"
import { directiveNotFound } from "./Warnings.js"

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

/** The distinct directives in first-occurrence order (a `Set` only when there are many). */
const distinct = (directives: ReadonlyArray<string>): ReadonlyArray<string> => {
  if (directives.length > 16) return [...new Set(directives)]
  let unique: Array<string> | undefined
  for (let i = 1; i < directives.length; i++) {
    if (directives.lastIndexOf(directives[i]!, i - 1) === -1) unique?.push(directives[i]!)
    else unique ??= directives.slice(0, i)
  }
  return unique ?? directives
}

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
  warnings: Array<PlanWarning>
): SlotClaim => {
  const from = attributions.text.length
  if (slots.length > 0 && directives.length > 0) {
    const unique = distinct(directives)
    for (let d = 0; d < unique.length; d++) {
      const directive = unique[d]!
      if (directive.length === 0) continue
      let found = false
      for (let k = 0; k < slots.length && !found; k++) {
        const at = findVerbatim(index.messages[slots[k]!]!.text, directive)
        if (at !== -1) {
          add(attributions, slots[k]!, directive, at)
          found = true
        }
      }
      if (!found) warnings.push(directiveNotFound(directive, slots.map((slot) => index.seqs[slot]!)))
    }
  }
  return { slots, from, to: attributions.text.length }
}

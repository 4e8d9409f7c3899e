/** WarningLog: the warnings of one plan application, recorded as code, seqs and quoted text, and worded once at the end. */
import type { PlanWarning, WarningCode } from "./Decision.js"
import { compareNumbers, compareSeqLists, compareStrings, wording } from "./Warnings.js"

/**
 * Warnings as they are found, in three parallel arrays (warning `i` is `codes[i]`, `seqs[i]`,
 * `texts[i]`), so recording one allocates only its seqs. Only the warnings that survive
 * deduplication are worded, and ordering compares the quoted texts rather than the words.
 */
export interface WarningLog {
  readonly codes: Array<WarningCode>
  readonly seqs: Array<ReadonlyArray<number>>
  /** The quoted instruction of a `directive-…` warning; empty for the others. */
  readonly texts: Array<string>
}

/** An empty log. */
export const make = (): WarningLog => ({ codes: [], seqs: [], texts: [] })

/**
 * Records a warning. `seqs` is kept, not copied, so the caller passes a list of its own; it is
 * sorted ascending here when it is not already (the callers' lists always are).
 */
export const record = (log: WarningLog, code: WarningCode, seqs: Array<number>, text = ""): void => {
  for (let i = 1; i < seqs.length; i++) {
    if (!(seqs[i - 1]! < seqs[i]!)) {
      seqs.sort(compareNumbers)
      break
    }
  }
  log.codes.push(code)
  log.seqs.push(seqs)
  log.texts.push(text)
}

/**
 * The order of `Warnings.canonicalWarnings` (code, seqs, then message), without wording the
 * messages. Two warnings with the same code and equal seqs are worded as one prefix, their
 * quoted text, and one suffix, so their messages compare as their texts do, unless one text is a
 * prefix of the other; that case, and seqs whose comparison is undefined (NaN, from two
 * infinities), compare the words themselves.
 */
const comparator = ({ codes, seqs, texts }: WarningLog) => (a: number, b: number): number => {
  const byCode = compareStrings(codes[a]!, codes[b]!)
  if (byCode !== 0) return byCode
  const bySeqs = compareSeqLists(seqs[a]!, seqs[b]!)
  if (bySeqs !== 0 && !Number.isNaN(bySeqs)) return bySeqs
  const textA = texts[a]!
  const textB = texts[b]!
  if (bySeqs === 0) {
    if (textA === textB) return 0
    if (!textA.startsWith(textB) && !textB.startsWith(textA)) return compareStrings(textA, textB)
  }
  return compareStrings(wording(codes[a]!, seqs[a]!, textA), wording(codes[b]!, seqs[b]!, textB))
}

/**
 * The logged warnings deduplicated and in canonical order, as `Warnings.canonicalWarnings`
 * gives them. Same code and equal seqs make the same words exactly when the texts are equal.
 */
export const toWarnings = (log: WarningLog): Array<PlanWarning> => {
  const { codes, seqs, texts } = log
  // Both lists are sized once rather than grown (the second is cut to the warnings kept).
  const order = new Array<number>(codes.length)
  for (let i = 0; i < codes.length; i++) order[i] = i
  order.sort(comparator(log))
  const warnings = new Array<PlanWarning>(codes.length)
  let kept = 0
  let previous = -1
  for (const i of order) {
    if (
      previous === -1 || codes[previous] !== codes[i] || texts[previous] !== texts[i] ||
      compareSeqLists(seqs[previous]!, seqs[i]!) !== 0
    ) {
      warnings[kept++] = { code: codes[i]!, seqs: seqs[i]!, message: wording(codes[i]!, seqs[i]!, texts[i]!) }
      previous = i
    }
  }
  warnings.length = kept
  return warnings
}

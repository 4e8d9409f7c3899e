/**
 * The cut as first specified, kept as the oracle of `truncateText` and the baseline of its
 * benchmark: every grapheme boundary from one walk of `Intl.Segmenter` over the whole text (on
 * V8 quadratic in the text), then a binary search over them.
 */
import type { TokenCounter } from "@verbatim/domain/TokenCounter"
import { truncationMarker } from "@verbatim/domain/TruncateText"

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" })

/** Every grapheme boundary of `text`, the segmenter walking it whole. */
export const wholeTextBoundaries = (text: string): Array<number> => [...Array.from(segmenter.segment(text), (s) => s.index), text.length]

/** `text` cut to `budget` as first specified. */
export const wholeTextCut = (text: string, budget: number, count: TokenCounter): string => {
  if (count(text) <= budget) return text
  const fits = (end: number) => count(text.slice(0, end) + truncationMarker) <= budget
  if (!fits(0)) return ""
  const boundaries = wholeTextBoundaries(text)
  let low = 0
  let high = boundaries.length - 1
  while (high - low > 1) {
    const middle = (low + high) >>> 1
    if (fits(boundaries[middle]!)) low = middle
    else high = middle
  }
  return text.slice(0, boundaries[low]!) + truncationMarker
}

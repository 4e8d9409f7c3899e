/** Grapheme-safe cutting of one text to a token budget, with an explicit, counted marker. */
import type { TokenCounter } from "./TokenCounter.js"

/** Appended to every cut text so the model (and a reader of the prompt) sees that text is missing. */
export const truncationMarker = "…[truncated]"

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" })

/** UTF-16 offsets where a cut keeps every grapheme cluster whole, from 0 to `text.length`. */
export const graphemeBoundaries = (text: string): ReadonlyArray<number> => {
  const boundaries: Array<number> = []
  for (const segment of segmenter.segment(text)) boundaries.push(segment.index)
  boundaries.push(text.length)
  return boundaries
}

/**
 * The text itself when it fits `budget`; otherwise its longest prefix, ending on a grapheme
 * boundary, that fits together with `truncationMarker`, followed by the marker; the empty
 * string when not even the marker fits. The result always fits, so cutting it again returns
 * it unchanged (idempotent), and it depends only on the longest prefix that fits
 * (prefix-stable). Calls `count` once, plus about log2(graphemes) times when it cuts.
 */
export const truncateText = (text: string, budget: number, count: TokenCounter): string => {
  if (count(text) <= budget) return text
  const fits = (end: number) => count(text.slice(0, end) + truncationMarker) <= budget
  const boundaries = graphemeBoundaries(text)
  if (!fits(0)) return ""
  // Binary search for the last boundary that fits: the whole text is known not to fit.
  let low = 0
  let high = boundaries.length - 1
  while (high - low > 1) {
    const middle = (low + high) >>> 1
    if (fits(boundaries[middle]!)) low = middle
    else high = middle
  }
  return text.slice(0, boundaries[low]!) + truncationMarker
}

/**
 * Grapheme-safe cutting of one text to a token budget, with an explicit, counted marker, in time
 * linear in the text: the segmenter only ever reads near the cut point or one window at a time
 * (on V8 its iteration costs time quadratic in the text it walks: 100,000 characters took
 * seconds).
 */
import type { TokenCounter } from "./TokenCounter.js"

/** Appended to every cut text so the model (and a reader of the prompt) sees that text is missing. */
export const truncationMarker = "…[truncated]"

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" })

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff

/** `offset`, moved back one unit when it would split a surrogate pair. */
const codePointStart = (text: string, offset: number): number =>
  offset > 0 && offset < text.length && isLowSurrogate(text.charCodeAt(offset)) && isHighSurrogate(text.charCodeAt(offset - 1))
    ? offset - 1
    : offset

/**
 * UTF-16 offsets where a cut keeps every grapheme cluster whole, from 0 to `text.length`, in
 * time linear in the text. The segmenter reads `window` units at a time from a known boundary;
 * the last cluster of a window may run on past it, so it is read again at the start of the next
 * (a window is widened while one cluster fills it). Whether a boundary falls before a character
 * depends only on what precedes it and on that character, so each window's boundaries are the
 * whole text's.
 */
export const graphemeBoundaries = (text: string, window = 256): ReadonlyArray<number> => {
  const boundaries: Array<number> = []
  let start = 0
  let size = window
  while (start < text.length) {
    let end = Math.min(text.length, start + size)
    // A window never ends inside a surrogate pair: half of one is a character of its own.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end += 1
    let last = start
    for (const segment of segmenter.segment(text.slice(start, end))) {
      last = start + segment.index
      boundaries.push(last)
    }
    if (end === text.length) break
    boundaries.pop()
    if (last === start) size *= 2
    else {
      start = last
      size = window
    }
  }
  boundaries.push(text.length)
  return boundaries
}

/** The last grapheme boundary at or before `offset` (a code point boundary below `text.length`). */
const graphemeStart = (text: string, offset: number): number => segmenter.segment(text).containing(offset)?.index ?? offset

/**
 * The largest offset in [low, high) whose `tokens` fit `budget`, given that `low`'s do and
 * `high`'s do not, for `tokens` that never fall as the offset grows. Each probe goes where a
 * straight line through the two known counts runs out of budget (counts grow about linearly,
 * so this lands within a few units of the answer). A probe that did not halve the range is
 * followed by one a step beyond it, on its side, so the far end is never probed: a prefix's count
 * costs time in its length, and after a close guess the far end is the whole text. The step
 * doubles with each such probe and never passes the middle of the range, so past log2(length)
 * of them every such probe halves: at most three times the probes of a binary search.
 */
const lastFitting = (
  budget: number,
  tokens: (offset: number) => number,
  from: { low: number; lowTokens: number; high: number; highTokens: number }
): number => {
  let { high, highTokens, low, lowTokens } = from
  let interpolate = true
  let step = 1
  let fromLow = true
  while (high - low > 1) {
    const width = high - low
    const line = low + Math.floor(width * (budget - lowTokens) / Math.max(1, highTokens - lowTokens))
    const beyond = Math.max(1, Math.min(step, width >>> 1))
    const probe = interpolate ? Math.min(high - 1, Math.max(low + 1, line)) : fromLow ? low + beyond : high - beyond
    const counted = tokens(probe)
    fromLow = counted <= budget
    if (fromLow) {
      low = probe
      lowTokens = counted
    } else {
      high = probe
      highTokens = counted
    }
    const halved = high - low <= width / 2
    if (!interpolate && !halved) step *= 2
    interpolate = halved
  }
  return low
}

/**
 * The text itself when it fits `budget`; otherwise its longest prefix, ending on a grapheme
 * boundary, that fits together with `truncationMarker`, followed by the marker; the empty
 * string when not even the marker fits. `count` must never fall as a prefix grows (every
 * counter here counts units, code points or bytes). The result always fits, so cutting it
 * again returns it unchanged (idempotent), and it depends only on the longest prefix that fits
 * (prefix-stable). Calls `count` once, plus at most 3·log2(length) + 1 times when it cuts; the
 * segmenter reads once, at the cut.
 */
export const truncateText = (text: string, budget: number, count: TokenCounter): string => {
  const whole = count(text)
  if (whole <= budget) return text
  const tokens = (end: number) => count(text.slice(0, codePointStart(text, end)) + truncationMarker)
  const empty = tokens(0)
  if (empty > budget) return ""
  // The whole text does not fit, so neither does it with the marker: the cut lies below its length.
  const last = codePointStart(text, lastFitting(budget, tokens, { low: 0, lowTokens: empty, high: text.length, highTokens: whole + empty }))
  return text.slice(0, graphemeStart(text, last)) + truncationMarker
}

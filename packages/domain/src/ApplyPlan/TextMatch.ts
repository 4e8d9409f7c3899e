/** Verbatim text primitives: substring search that respects surrogate pairs, and whitespace tests. */

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff

/** True when UTF-16 offset `at` falls between the two halves of a surrogate pair of `text`. */
export const splitsPair = (text: string, at: number): boolean =>
  at > 0 && at < text.length && isHighSurrogate(text.charCodeAt(at - 1)) && isLowSurrogate(text.charCodeAt(at))

/**
 * The first offset at which `needle` occurs in `text` without either edge splitting a
 * surrogate pair, or -1. An empty needle is never found: it would cut nothing.
 */
export const findVerbatim = (text: string, needle: string): number => {
  if (needle.length === 0) return -1
  let at = text.indexOf(needle)
  while (at !== -1) {
    if (!splitsPair(text, at) && !splitsPair(text, at + needle.length)) return at
    at = text.indexOf(needle, at + 1)
  }
  return -1
}

/**
 * Whitespace exactly as `String.prototype.trim` sees it. Every such character is a single
 * UTF-16 unit outside the surrogate range, so tidying whitespace never splits a pair.
 */
export const isWhitespace = (code: number): boolean =>
  (code >= 0x09 && code <= 0x0d) ||
  code === 0x20 ||
  code === 0xa0 ||
  code === 0x1680 ||
  (code >= 0x2000 && code <= 0x200a) ||
  code === 0x2028 ||
  code === 0x2029 ||
  code === 0x202f ||
  code === 0x205f ||
  code === 0x3000 ||
  code === 0xfeff

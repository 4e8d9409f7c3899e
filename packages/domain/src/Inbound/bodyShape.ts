/**
 * Checks on webhook input beyond its schema: a parsed body nested deep enough to exhaust a
 * recursive decoder, and text a store cannot keep exactly. A lone UTF-16 surrogate (`"\ud83d"` is
 * valid JSON) is written as U+FFFD by SQLite's and PostgreSQL's drivers, so the stored text would
 * differ from the text a note's provenance points into; PostgreSQL cannot store U+0000 at all.
 */

/** Deeper than any real delivery; decoding deeper values recursively could exhaust the stack. */
export const maxNesting = 64

/** How deeply arrays and objects nest in a parsed JSON value, walked without recursion. */
export const nesting = (value: unknown): number => {
  let deepest = 0
  const stack: Array<readonly [unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!
    if (typeof current !== "object" || current === null) continue
    if (depth + 1 > deepest) deepest = depth + 1
    if (deepest > maxNesting) return deepest
    for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push([child, depth + 1])
  }
  return deepest
}

/**
 * How deeply arrays and objects nest in a JSON text, read without parsing it (brackets inside
 * strings do not count); it stops counting once past `maxNesting`. For a text that is not JSON
 * the answer means nothing, and a parser says what is wrong.
 */
export const textNesting = (text: string): number => {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (inString) {
      if (code === 0x5c) i++ // a backslash escapes the next unit
      else if (code === 0x22) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x5b || code === 0x7b) {
      depth++
      if (depth > deepest) deepest = depth
      if (deepest > maxNesting) return deepest
    } else if (code === 0x5d || code === 0x7d) depth--
  }
  return deepest
}

const notText = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/

/** `String.prototype.isWellFormed` (ES2024, on every Node this runs on): no lone surrogate, checked natively. */
const wellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed()

/**
 * What in `text` a store could not keep exactly, or null. Most texts are well formed and hold no
 * U+0000: two native scans settle them (a fifth of the pattern's time on a megabyte), and only
 * a text that fails one is searched for what to name.
 */
export const notTextIn = (text: string): string | null => {
  if (wellFormed(text) && !text.includes("\u0000")) return null
  const found = notText.exec(text)?.[0]
  if (found === undefined) return null
  return found === "\u0000" ? "U+0000 (NUL)" : `a lone surrogate U+${found.charCodeAt(0).toString(16).toUpperCase()}`
}

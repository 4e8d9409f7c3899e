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

const notText = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/

/** What in `text` a store could not keep exactly, or null. */
export const notTextIn = (text: string): string | null => {
  const found = notText.exec(text)?.[0]
  if (found === undefined) return null
  return found === "\u0000" ? "U+0000 (NUL)" : `a lone surrogate U+${found.charCodeAt(0).toString(16).toUpperCase()}`
}

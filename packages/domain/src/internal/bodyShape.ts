/**
 * Checks on a parsed webhook body before its schema sees it: nesting deep enough to exhaust a
 * recursive decoder, and strings that are not text a store can keep exactly. A lone UTF-16
 * surrogate (`"\ud83d"` is valid JSON) is written as U+FFFD by SQLite's and PostgreSQL's drivers,
 * so the stored text would differ from the text the note's provenance points into; PostgreSQL
 * cannot store U+0000 at all. Either is refused, with the field's path, rather than stored altered.
 */

/** Deeper than any real delivery; decoding deeper values recursively could exhaust the stack. */
export const maxNesting = 64

const notText = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/

const describeChar = (char: string): string =>
  char === "\u0000" ? "U+0000 (NUL)" : `a lone surrogate U+${char.charCodeAt(0).toString(16).toUpperCase()}`

interface Visit {
  readonly value: unknown
  readonly depth: number
  readonly parent: Visit | null
  readonly key: string | number | null
}

const pathOf = (visit: Visit): string => {
  const keys: Array<string | number> = []
  for (let at: Visit | null = visit; at !== null && at.key !== null; at = at.parent) keys.push(at.key)
  return keys.reverse().map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? key : `.${key}`)).join("")
}

/** What makes the body unfit to decode, or null; walked without recursion. */
export const bodyShapeProblem = (body: unknown): string | null => {
  const stack: Array<Visit> = [{ value: body, depth: 0, parent: null, key: null }]
  while (stack.length > 0) {
    const visit = stack.pop()!
    const value = visit.value
    if (typeof value === "string") {
      const found = notText.exec(value)
      if (found !== null) return `${pathOf(visit) || "body"}: contains ${describeChar(found[0])}, which is not text`
      continue
    }
    if (typeof value !== "object" || value === null) continue
    const depth = visit.depth + 1
    if (depth > maxNesting) return `body nests deeper than ${maxNesting} levels`
    if (Array.isArray(value)) value.forEach((child, i) => stack.push({ value: child, depth, parent: visit, key: i }))
    else for (const [key, child] of Object.entries(value)) stack.push({ value: child, depth, parent: visit, key })
  }
  return null
}

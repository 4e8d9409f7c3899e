/**
 * Statements in a few shapes. A driver prepares a statement once per text and keeps the few
 * hundred newest (better-sqlite3 through @effect/sql keeps 200); a batch whose `IN` list or row
 * count follows its size would make a text for every size and push the others out, so each
 * batch would prepare its statements anew. Sizes are powers of two instead: a dozen texts a
 * statement at most.
 */

/** Powers of two, each at most `max` (itself at least 1), that add up to `count`, largest first. */
export const sizesFor = (count: number, max: number): Array<number> => {
  const out: Array<number> = []
  let size = 1
  while (size * 2 <= max) size *= 2
  for (let left = count; left > 0;) {
    while (size > left) size /= 2
    out.push(size)
    left -= size
  }
  return out
}

/** Consecutive slices of `items` in the sizes `sizesFor` gives. */
export const shapedChunks = <A>(items: ReadonlyArray<A>, max: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  let at = 0
  for (const size of sizesFor(items.length, max)) {
    out.push(items.slice(at, at + size))
    at += size
  }
  return out
}

/**
 * A non-empty list made a power of two long by repeating its last value: as an `IN` list it
 * matches what the list matches.
 */
export const padded = <A>(values: ReadonlyArray<A>): ReadonlyArray<A> => {
  let size = 1
  while (size < values.length) size *= 2
  if (size === values.length || values.length === 0) return values
  const out = values.slice()
  const last = values[values.length - 1]!
  while (out.length < size) out.push(last)
  return out
}

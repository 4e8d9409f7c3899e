/** An in-place stable sort of part of an array, without the per-call allocation of `Array.prototype.sort` on small ranges. */

/**
 * Sorts `items[from, to)` in place, stably. Small ranges (nearly all of them) use insertion
 * sort, because `Array.prototype.sort` allocates its merge state on every call.
 */
export const sortRange = (items: Array<number>, from: number, to: number, compare: (a: number, b: number) => number): void => {
  if (to - from > 24) {
    const sorted = items.slice(from, to).sort(compare)
    for (let i = 0; i < sorted.length; i++) items[from + i] = sorted[i]!
    return
  }
  for (let i = from + 1; i < to; i++) {
    const item = items[i]!
    let j = i - 1
    while (j >= from && compare(items[j]!, item) > 0) {
      items[j + 1] = items[j]!
      j--
    }
    items[j + 1] = item
  }
}

/** Ascending slot order. */
export const bySlot = (a: number, b: number): number => a - b

/** Total orders that never depend on locale or input order, so canonical output is the same everywhere. */

/** Numeric order that is total even for NaN (last), so sorting never depends on input order. */
export const compareNumbers = (a: number, b: number): number => {
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : 1
  if (Number.isNaN(b)) return -1
  return a - b
}

/** Code-unit string order: locale-independent, so every machine sorts alike. */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Lexicographic order of seq lists by `compareNumbers`, shorter first on a tie. */
export const compareSeqLists = (a: ReadonlyArray<number>, b: ReadonlyArray<number>): number => {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const order = compareNumbers(a[i]!, b[i]!)
    if (order !== 0) return order
  }
  return a.length - b.length
}

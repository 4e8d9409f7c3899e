/** The command a misspelt one most likely meant. */

/** Edits (insertions, deletions, substitutions, swaps of neighbours) that turn `a` into `b`. */
const distance = (a: string, b: string): number => {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1)
    }
  }
  return d[a.length]![b.length]!
}

/**
 * The name closest to `word` when it is close enough to be a slip (a prefix of three letters or
 * more, or at most a third of it, and 2, edits away) and no other name is as close; else null.
 */
export const nearest = (word: string, names: ReadonlyArray<string>): string | null => {
  const lower = word.toLowerCase()
  const scored = names.map((name) => ({ name, edits: name.startsWith(lower) && lower.length >= 3 ? 0.5 : distance(lower, name) }))
  const fewest = Math.min(...scored.map((s) => s.edits))
  const best = scored.filter((s) => s.edits === fewest)
  return best.length === 1 && fewest <= Math.min(2, Math.max(1, Math.floor(lower.length / 3))) ? best[0]!.name : null
}

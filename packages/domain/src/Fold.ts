/**
 * Text as search compares it: case and accents folded (`Joao` matches `João`, `reuniao` matches
 * `reunião`), the way the search index folds it on both backends. Only for comparing: the stored
 * and shown text is never folded.
 */

/** `text` decomposed, its combining accents (U+0300–U+036F) dropped, lower-cased. */
export const fold = (text: string): string => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLocaleLowerCase()

/** Whether `name` holds `query` (already trimmed), case and accents aside; an empty query matches everything. */
export const holdsFolded = (name: string, query: string): boolean => query === "" || fold(name).includes(fold(query))

/**
 * Where the words of `query` are in `text`, case and accents aside: `[start, end)` ranges of
 * `text`'s own UTF-16 offsets, in order, apart and not touching, each taking in the accents that
 * follow its last letter. For marking what a search found in the text as it was sent.
 */
export const foldedRanges = (text: string, query: string): ReadonlyArray<readonly [number, number]> => {
  // The folded text, and for each of its characters the original code point it came from.
  let folded = ""
  const from: Array<number> = []
  const ends: Array<number> = []
  for (let i = 0; i < text.length;) {
    const point = text.codePointAt(i)!
    const width = point > 0xffff ? 2 : 1
    const piece = fold(String.fromCodePoint(point))
    for (let k = 0; k < piece.length; k++) {
      from.push(i)
      ends.push(i + width)
    }
    folded += piece
    i += width
  }
  const found: Array<readonly [number, number]> = []
  const words = query.split(/\s+/).map(fold).filter((w) => w !== "")
  for (const word of words) {
    for (let at = folded.indexOf(word); at !== -1; at = folded.indexOf(word, at + word.length)) {
      let end = ends[at + word.length - 1]!
      while (end < text.length && /[\u0300-\u036f]/.test(text[end]!)) end += 1
      found.push([from[at]!, end])
    }
  }
  const merged: Array<readonly [number, number]> = []
  for (const range of found.sort((a, b) => a[0] - b[0] || a[1] - b[1])) {
    const last = merged[merged.length - 1]
    if (last !== undefined && range[0] <= last[1]) merged[merged.length - 1] = [last[0], Math.max(last[1], range[1])]
    else merged.push(range)
  }
  return merged
}

/**
 * File names for exported pages: a name's letters and digits joined by hyphens, safe on every
 * filesystem and in Obsidian links; names that share one are told apart by `-2`, `-3`, … in the
 * order their owners came, so adding someone later never renames an earlier page.
 */

const reserved = /^(con|prn|aux|nul|com\d|lpt\d)$/

/** A name as a file name stem: lower-case letters and digits of any script, hyphen-joined, at most 60 characters. */
export const slug = (name: string, fallback: string): string => {
  const words = name.normalize("NFKC").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "")
  let out = ""
  for (const word of words) {
    const next = out === "" ? word : `${out}-${word}`
    if ([...next].length > 60) break
    out = next
  }
  if (out === "") out = [...(words[0] ?? "")].slice(0, 60).join("") || fallback
  // Windows refuses these names whatever the extension.
  return reserved.test(out) ? `${out}-${fallback}` : out
}

/** A distinct stem for each name, in order, none equal to one in `taken`. */
export const distinctSlugs = (names: ReadonlyArray<string>, fallback: string, taken: ReadonlyArray<string> = []): Array<string> => {
  const used = new Set(taken)
  return names.map((name) => {
    const base = slug(name, fallback)
    let candidate = base
    for (let n = 2; used.has(candidate); n++) candidate = `${base}-${n}`
    used.add(candidate)
    return candidate
  })
}

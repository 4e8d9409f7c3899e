/**
 * HTTP `Range: bytes=…` on one stored file (RFC 9110 §14): the one range a player asks for
 * (`bytes=500-`, `bytes=500-999`, `bytes=-500`), clipped to the file; a range past its end is
 * unsatisfiable (416). Anything else (another unit, several ranges, a malformed header) is
 * answered with the whole file, as the RFC lets a server do.
 */

export type ByteRange =
  | { readonly _tag: "Whole" }
  /** Bytes `start` to `end`, both included. */
  | { readonly _tag: "Part"; readonly start: number; readonly end: number }
  | { readonly _tag: "Unsatisfiable" }

const whole: ByteRange = { _tag: "Whole" }

/** The range `header` asks of a file of `size` bytes. */
export const byteRange = (header: string | undefined, size: number): ByteRange => {
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header ?? "")
  if (match === null) return whole
  const [, first = "", last = ""] = match
  if (first === "" && last === "") return whole
  if (first === "") {
    const suffix = Number(last)
    if (suffix === 0 || size === 0) return { _tag: "Unsatisfiable" }
    return { _tag: "Part", start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(first)
  if (start >= size) return { _tag: "Unsatisfiable" }
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1)
  return end < start ? whole : { _tag: "Part", start, end }
}

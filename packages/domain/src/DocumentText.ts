/**
 * A document's text as a note keeps it: bytes decoded by the encoding they declare (a UTF-8 or
 * UTF-16 byte-order mark) or as UTF-8, with every byte that is not valid named where it stood
 * (`[not UTF-8: 0xE9]`), never guessed into a letter; pages joined with their places kept; and a
 * text past the limit cut at a page boundary (or, inside one page, at a line break) with a marker
 * that says what was left in the file.
 */
import type { PageSpan } from "./Media.js"

export type TextEncoding = "UTF-8" | "UTF-16LE" | "UTF-16BE"

export interface DecodedText {
  readonly text: string
  readonly encoding: TextEncoding
  /** Bytes that are not valid in the encoding, each named in the text. */
  readonly invalid: number
}

const hex = (byte: number) => `0x${byte.toString(16).toUpperCase().padStart(2, "0")}`

/** The length of the well-formed UTF-8 sequence at `i` (Unicode's table 3-7), or 0 when there is none. */
const sequenceAt = (bytes: Uint8Array, i: number): number => {
  const b0 = bytes[i]!
  if (b0 < 0x80) return 1
  const cont = (at: number, low = 0x80, high = 0xbf) => at < bytes.length && bytes[at]! >= low && bytes[at]! <= high
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(i + 1) ? 2 : 0
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const [low, high] = b0 === 0xe0 ? [0xa0, 0xbf] : b0 === 0xed ? [0x80, 0x9f] : [0x80, 0xbf]
    return cont(i + 1, low, high) && cont(i + 2) ? 3 : 0
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const [low, high] = b0 === 0xf0 ? [0x90, 0xbf] : b0 === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf]
    return cont(i + 1, low, high) && cont(i + 2) && cont(i + 3) ? 4 : 0
  }
  return 0
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false })

/** UTF-8, each run of invalid bytes named in brackets where it stood. */
const decodeUtf8 = (bytes: Uint8Array): DecodedText => {
  const pieces: Array<string> = []
  let invalid = 0
  let runStart = 0
  let i = 0
  let bad: Array<number> = []
  const flushBad = () => {
    if (bad.length === 0) return
    pieces.push(`[not UTF-8: ${bad.map(hex).join(" ")}]`)
    invalid += bad.length
    bad = []
  }
  while (i < bytes.length) {
    const length = sequenceAt(bytes, i)
    if (length > 0) {
      i += length
      continue
    }
    if (runStart < i) pieces.push(utf8.decode(bytes.subarray(runStart, i)))
    bad.push(bytes[i]!)
    i += 1
    while (i < bytes.length && sequenceAt(bytes, i) === 0) bad.push(bytes[i++]!)
    flushBad()
    runStart = i
  }
  if (runStart < bytes.length) pieces.push(utf8.decode(bytes.subarray(runStart)))
  return { text: pieces.join(""), encoding: "UTF-8", invalid }
}

/**
 * The text of a plain-text file: UTF-16 when a byte-order mark says so (null when its bytes are
 * not UTF-16 after all), otherwise UTF-8 with invalid bytes named.
 */
export const decodeText = (bytes: Uint8Array): DecodedText | null => {
  const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe ? "UTF-16LE" : bytes[0] === 0xfe && bytes[1] === 0xff ? "UTF-16BE" : null
  if (utf16 !== null) {
    try {
      return { text: new TextDecoder(utf16.toLowerCase(), { fatal: true }).decode(bytes), encoding: utf16, invalid: 0 }
    } catch {
      return null
    }
  }
  const withoutMark = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes
  return decodeUtf8(withoutMark)
}

/** Whether decoded bytes look like a binary file rather than text: a NUL, which no text file holds. */
export const looksBinary = (text: string): boolean => text.includes("\u0000")

/** A document's text and where its pages lie in it. */
export interface PagedText {
  readonly text: string
  readonly pages: ReadonlyArray<PageSpan>
}

/** Between two pages. */
const pageBreak = "\n\n"

/** Where to cut one long page: the last line break, else the last space, at or before `max`, never inside a surrogate pair. */
const cutWithin = (text: string, max: number): number => {
  // A break right at the limit ends a whole line (or word) within it.
  const head = text.slice(0, max + 1)
  const line = head.lastIndexOf("\n")
  if (line > 0) return line
  const space = head.lastIndexOf(" ")
  if (space > 0) return space
  const code = text.charCodeAt(max - 1)
  return code >= 0xd800 && code <= 0xdbff ? max - 1 : max
}

/**
 * Pages (numbered from 1) joined, every page whole, until the next would take the text past
 * `maxChars`; then a marker naming the pages left in the file. A first page alone over the limit
 * is cut at a line break.
 */
export const keptPages = (pages: ReadonlyArray<string>, maxChars: number): PagedText => {
  let text = ""
  const spans: Array<PageSpan> = []
  for (let i = 0; i < pages.length; i++) {
    const page = pages[i]!
    const start = i === 0 ? 0 : text.length + pageBreak.length
    if (start + page.length > maxChars) {
      const rest = pages.length - i
      if (i === 0) {
        const cut = cutWithin(page, maxChars)
        spans.push({ page: 1, start: 0, end: cut })
        const after = rest === 1 ? "" : rest === 2 ? " and page 2" : ` and pages 2–${pages.length}`
        const left = `the rest${pages.length === 1 ? "" : " of page 1"} (${page.length - cut} characters)${after}`
        return { text: `${page.slice(0, cut)}${pageBreak}[cut here: ${left} kept in the file, not read]`, pages: spans }
      }
      const left = rest === 1 ? `page ${i + 1}` : `pages ${i + 1}–${pages.length}`
      return { text: `${text}${pageBreak}[cut here: ${left} of ${pages.length} kept in the file, not read]`, pages: spans }
    }
    text = i === 0 ? page : `${text}${pageBreak}${page}`
    spans.push({ page: i + 1, start, end: start + page.length })
  }
  return { text, pages: spans }
}

/** pdftotext's output as pages: split at its form feeds, the empty tail after the last one dropped, each page's trailing space trimmed. */
export const pdfPages = (output: string): ReadonlyArray<string> => {
  const pages = output.replace(/\u0000/g, "").split("\f")
  if (pages.length > 1 && pages.at(-1)!.trim() === "") pages.pop()
  return pages.map((page) => page.split("\n").map((line) => line.trimEnd()).join("\n").trim())
}

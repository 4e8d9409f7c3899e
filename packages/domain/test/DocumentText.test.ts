/** A document's text: decoded without guessing, pages kept in place, cut at a page boundary with the rest named. */
import { describe, expect, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { decodeText, keptPages, looksBinary, pdfPages } from "../src/DocumentText.js"

const bytes = (...parts: ReadonlyArray<string | ReadonlyArray<number>>) =>
  new Uint8Array(parts.flatMap((part) => (typeof part === "string" ? [...new TextEncoder().encode(part)] : [...part])))

describe("decodeText", () => {
  it("takes UTF-8 as it is, with or without its byte-order mark", () => {
    expect(decodeText(bytes("Zoë, 東京 🌸\nline two"))).toEqual({ text: "Zoë, 東京 🌸\nline two", encoding: "UTF-8", invalid: 0 })
    expect(decodeText(bytes([0xef, 0xbb, 0xbf], "Ana"))).toEqual({ text: "Ana", encoding: "UTF-8", invalid: 0 })
  })

  it("names every byte that is not UTF-8 where it stood, never guessing a letter", () => {
    // "café" and "naïve" as Windows-1252 would write them, a truncated euro sign at the end.
    expect(decodeText(bytes("caf", [0xe9], " and na", [0xef], "ve ", [0xe2, 0x82]))).toEqual({
      text: "caf[not UTF-8: 0xE9] and na[not UTF-8: 0xEF]ve [not UTF-8: 0xE2 0x82]",
      encoding: "UTF-8",
      invalid: 4
    })
    // An encoded surrogate (ED A0 80) and an overlong slash (C0 AF) are not UTF-8 either.
    expect(decodeText(bytes("a", [0xed, 0xa0, 0x80], "b", [0xc0, 0xaf]))?.text).toBe("a[not UTF-8: 0xED 0xA0 0x80]b[not UTF-8: 0xC0 0xAF]")
  })

  it("reads UTF-16 by its byte-order mark, and says when such a file is not UTF-16 after all", () => {
    const le = Buffer.from("\ufeffTomás, 09:00", "utf16le")
    expect(decodeText(le)).toEqual({ text: "Tomás, 09:00", encoding: "UTF-16LE", invalid: 0 })
    const be = Buffer.from(le).swap16()
    expect(decodeText(be)).toEqual({ text: "Tomás, 09:00", encoding: "UTF-16BE", invalid: 0 })
    expect(decodeText(bytes([0xff, 0xfe, 0x00, 0xd8, 0x41, 0x00]))).toBeNull()
  })

  test.prop([fc.string({ unit: "grapheme" })])("any valid UTF-8 text decodes to itself", (text) => {
    expect(decodeText(new TextEncoder().encode(text))).toEqual({ text: text.startsWith("\ufeff") ? text.slice(1) : text, encoding: "UTF-8", invalid: 0 })
  })

  test.prop([fc.uint8Array({ maxLength: 200 })])("any bytes decode, and every byte is either text or named", (data) => {
    const decoded = decodeText(data)
    if (decoded === null || decoded.encoding !== "UTF-8") return
    const named = [...decoded.text.matchAll(/\[not UTF-8: ((?:0x[0-9A-F]{2} ?)+)\]/g)].flatMap((m) => m[1]!.split(" "))
    expect(named.length).toBe(decoded.invalid)
  })

  it("tells a binary file by its NUL bytes", () => {
    expect([looksBinary("PK\u0003\u0004\u0000\u0000"), looksBinary("plain, text\n")]).toEqual([true, false])
  })
})

describe("keptPages", () => {
  it("joins whole pages with their places kept", () => {
    expect(keptPages(["Lease for Ana", "", "Signed 3 May"], 1000)).toEqual({
      text: "Lease for Ana\n\n\n\nSigned 3 May",
      pages: [{ page: 1, start: 0, end: 13 }, { page: 2, start: 15, end: 15 }, { page: 3, start: 17, end: 29 }]
    })
  })

  it("cuts at the page that would pass the limit and names the pages left in the file", () => {
    expect(keptPages(["one one", "two two", "three", "four"], 18)).toEqual({
      text: "one one\n\ntwo two\n\n[cut here: pages 3–4 of 4 kept in the file, not read]",
      pages: [{ page: 1, start: 0, end: 7 }, { page: 2, start: 9, end: 16 }]
    })
    expect(keptPages(["one one", "two two", "three"], 18).text).toBe("one one\n\ntwo two\n\n[cut here: page 3 of 3 kept in the file, not read]")
  })

  it("cuts a text of one page (a plain-text file) at its last line break before the limit, saying how much is left", () => {
    expect(keptPages(["name,city\nAna,Lisboa\nTom,Porto\n"], 20)).toEqual({
      text: "name,city\nAna,Lisboa\n\n[cut here: the rest (11 characters) kept in the file, not read]",
      pages: [{ page: 1, start: 0, end: 20 }]
    })
  })

  it("cuts one page over the limit at its last line break", () => {
    expect(keptPages(["first line\nsecond line\nthird", "page two"], 24)).toEqual({
      text: "first line\nsecond line\n\n[cut here: the rest of page 1 (6 characters) and page 2 kept in the file, not read]",
      pages: [{ page: 1, start: 0, end: 22 }]
    })
  })

  test.prop([fc.array(fc.string(), { maxLength: 8 }), fc.integer({ min: 1, max: 200 })])(
    "each kept page's span holds that page, whole, and nothing kept passes the limit",
    (pages, max) => {
      const kept = keptPages(pages, max)
      for (const span of kept.pages) {
        const page = pages[span.page - 1]!
        const shown = kept.text.slice(span.start, span.end)
        if (span.end - span.start === page.length) expect(shown).toBe(page)
        else expect(page.startsWith(shown)).toBe(true)
        expect(span.end).toBeLessThanOrEqual(max)
      }
      const whole = pages.join("\n\n")
      if (whole.length <= max) expect(kept.text).toBe(whole)
    }
  )
})

describe("pdfPages", () => {
  it("splits pdftotext's output at its form feeds, trailing space trimmed, the empty tail dropped", () => {
    expect(pdfPages("Lease   \nfor Ana\n\f\fSigned 3 May\n\f")).toEqual(["Lease\nfor Ana", "", "Signed 3 May"])
  })
})

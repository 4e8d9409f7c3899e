/**
 * Reading documents with the real poppler and Tesseract: PDFs with a text layer and scanned ones
 * (written by `RealPdf`), plain text in the encodings people send, and the files that cannot be
 * read, each ending in exactly one outcome that says why.
 */
import { describe, expect, it } from "@effect/vitest"
import { pdfOf, scanPage, textPage } from "@verbatim/testkit/RealPdf"
import { textJpeg, textPng } from "@verbatim/testkit/RealMedia"
import { Duration, Effect, Either } from "effect"
import * as Documents from "../../src/Media/Documents.js"
import { MediaError } from "../../src/Media/MediaError.js"
import * as Tesseract from "../../src/Media/Tesseract.js"

const asBytes = (data: Uint8Array, mimeType: string | null = null) => ({ chunks: [data], size: data.length, mimeType })
const failed = (reason: string, permanent = true) => Either.left(new MediaError({ stage: "transcribe", permanent, reason }))
const encode = (text: string) => new TextEncoder().encode(text)

/** A reader keeping `maxChars`, with Tesseract for pictures and a transcriber that names what it heard. */
const reading = (data: Uint8Array, fileName: string | null, mimeType: string | null, maxChars = 100_000) =>
  Effect.gen(function*() {
    const reader = yield* Documents.make({ maxChars })
    const ocr = yield* Tesseract.make({ languages: ["eng"], timeout: Duration.seconds(30) })
    return yield* Effect.either(reader.read(asBytes(data, mimeType), { fileName, mimeType }, {
      look: ocr.read,
      hear: (recording) => Effect.succeed({ text: `heard ${recording.size} bytes`, model: "whisper-1", language: null, segments: [] })
    }))
  })

const poppler = /^pdftotext \d+\.\d+\.\d+$/

describe("reading documents", () => {
  it.effect("a PDF's text, page by page, with the pages' places kept for the audit", () =>
    Effect.gen(function*() {
      const pdf = pdfOf([textPage("Lease for Ana (final)", "Rent: 900 EUR, caf\u00e9 downstairs"), textPage("Signed 3 May")])
      const read = yield* reading(pdf, "lease.pdf", "application/pdf")
      const text = "Lease for Ana (final)\nRent: 900 EUR, café downstairs\n\nSigned 3 May"
      expect(Either.map(read, ({ model: _, ...rest }) => rest)).toEqual(Either.right({
        source: "document",
        text,
        language: null,
        segments: [],
        pages: [{ page: 1, start: 0, end: 52 }, { page: 2, start: 54, end: 66 }]
      }))
      expect(Either.getOrThrow(read).model).toMatch(poppler)
      expect(text.slice(54, 66)).toBe("Signed 3 May")
    }), 30_000)

  it.effect("a scanned page without a text layer is read from its picture, and the reading names who read which page", () =>
    Effect.gen(function*() {
      const jpeg = yield* textJpeg("Dentist 3 May, 15:30", 1200, 300)
      const pdf = pdfOf([textPage("Cover letter"), scanPage(jpeg, 1200, 300)])
      const read = Either.getOrThrow(yield* reading(pdf, "scan.pdf", "application/pdf"))
      expect(read.text).toBe("Cover letter\n\nDentist 3 May, 15:30")
      expect(read.pages).toEqual([{ page: 1, start: 0, end: 12 }, { page: 2, start: 14, end: 34 }])
      expect(read.model).toMatch(/^pdftotext \d+\.\d+\.\d+; page 2 read by tesseract \d+\.\d+\.\d+ \(eng\)$/)
    }), 60_000)

  it.effect("at most 100 pages without text are read from their pictures; the ones after say so", () =>
    Effect.gen(function*() {
      const reader = yield* Documents.make({ maxChars: 100_000 })
      let looked = 0
      const blank = pdfOf(Array.from({ length: Documents.maxPicturedPages + 2 }, () => textPage()))
      const read = yield* reader.read(asBytes(blank), { fileName: "scans.pdf", mimeType: null }, {
        look: () => Effect.sync(() => ({ text: `picture ${++looked}`, model: "ocr", language: null, segments: [] })),
        hear: () => Effect.die("no recording here")
      })
      expect(looked).toBe(Documents.maxPicturedPages)
      const said = "not read: only the first 100 pages without text are read from their pictures]"
      expect(read.text.split("\n\n").slice(-3)).toEqual(["picture 100", `[page 101 ${said}`, `[page 102 ${said}`])
    }), 60_000)

  it.effect("a text past the limit is cut at a page boundary and says what stays in the file", () =>
    Effect.gen(function*() {
      const pdf = pdfOf([textPage("Page one of the lease"), textPage("Page two of the lease"), textPage("Page three")])
      const read = Either.getOrThrow(yield* reading(pdf, "lease.pdf", null, 1_000))
      expect(read.text).toBe("Page one of the lease\n\nPage two of the lease\n\nPage three")
      const long = pdfOf(Array.from({ length: 30 }, (_, i) => textPage(`Page ${i + 1}: ${"rent and deposit terms ".repeat(2)}`)))
      const cut = Either.getOrThrow(yield* reading(long, "long.pdf", null, 1_000))
      // Pages 1–9 are 53 characters, 10–18 are 54: with the breaks between them, 997; page 19 would make it 1,053.
      const kept = Array.from({ length: 18 }, (_, i) => `Page ${i + 1}: ${"rent and deposit terms ".repeat(2).trimEnd()}`)
      expect(kept.join("\n\n").length).toBe(997)
      expect(cut.text).toBe(`${kept.join("\n\n")}\n\n[cut here: pages 19–30 of 30 kept in the file, not read]`)
    }), 30_000)

  it.effect("plain text, Markdown and CSV as they are; bytes that are not UTF-8 named, never guessed", () =>
    Effect.gen(function*() {
      expect(yield* reading(encode("name,city\nAna,Lisboa\nZo\u00eb,K\u00f6ln\n"), "people.csv", "text/csv")).toEqual(Either.right({
        source: "document",
        text: "name,city\nAna,Lisboa\nZoë,Köln\n",
        model: "text (UTF-8)",
        language: null,
        segments: []
      }))
      expect(Either.map(yield* reading(encode("# Ana\n- moved to *Porto*"), "ana.md", null), (r) => [r.text, r.model])).toEqual(
        Either.right(["# Ana\n- moved to *Porto*", "text (UTF-8)"])
      )
      const windows1252 = Buffer.from("Caf\u00e9 with Ren\u00e9e", "latin1")
      expect(Either.map(yield* reading(windows1252, "notes.txt", "text/plain"), (r) => [r.text, r.model])).toEqual(
        Either.right(["Caf[not UTF-8: 0xE9] with Ren[not UTF-8: 0xE9]e", "text (UTF-8, 2 bytes not UTF-8)"])
      )
      const utf16 = Buffer.from("\ufeffTom\u00e1s: 09:00", "utf16le")
      expect(Either.map(yield* reading(utf16, "t.txt", null), (r) => [r.text, r.model])).toEqual(Either.right(["Tomás: 09:00", "text (UTF-16LE)"]))
    }), 30_000)

  it.effect("a document that is a picture or a recording goes to the image reader or the transcriber, by its bytes", () =>
    Effect.gen(function*() {
      const png = yield* textPng("Call Ana back", 900, 200)
      // Named a PDF by the sender's app, but its bytes are a PNG: the bytes win.
      expect(Either.map(yield* reading(png, "note.pdf", "application/pdf"), (r) => [r.source, r.text])).toEqual(Either.right(["image", "Call Ana back"]))
      const ogg = Uint8Array.from([...encode("OggS"), ...new Uint8Array(60)])
      expect(Either.map(yield* reading(ogg, "memo.m4a", "audio/mp4"), (r) => [r.source, r.text])).toEqual(Either.right(["speech", "heard 64 bytes"]))
    }), 30_000)

  it.effect("each file that cannot be read ends in one final reason: locked, corrupt, empty, mislabelled, binary or of no type read", () =>
    Effect.gen(function*() {
      expect(yield* reading(pdfOf([textPage("secret")], { locked: true }), "locked.pdf", "application/pdf")).toEqual(failed("the PDF is protected by a password"))
      const corrupt = yield* reading(encode("%PDF-1.4\nthis is not a PDF at all"), "broken.pdf", "application/pdf")
      expect(Either.isLeft(corrupt) && corrupt.left.permanent && corrupt.left.reason.startsWith("the PDF could not be read (pdftotext failed (exit 1)")).toBe(true)
      expect(yield* reading(new Uint8Array(0), "empty.pdf", "application/pdf")).toEqual(failed("the file is empty"))
      expect(yield* reading(encode("just words, really"), "photo.jpg", "image/jpeg")).toEqual(failed("the file's bytes are not the image it is named as"))
      expect(yield* reading(encode("not a pdf"), "lease.pdf", "application/pdf")).toEqual(failed("the file's bytes are not the PDF it is named as"))
      expect(yield* reading(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0x14, 0]), "notes.txt", "text/plain")).toEqual(failed("the file's bytes are not text"))
      expect(yield* reading(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0x14, 0]), "archive.zip", "application/zip")).toEqual(failed("unsupported type"))
    }), 30_000)
})

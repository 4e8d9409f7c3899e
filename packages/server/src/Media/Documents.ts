/**
 * Reading documents: what a file is, it says by its bytes first and its name and declared type
 * second. A PDF's text comes from poppler's `pdftotext`, page by page (pages kept for the audit);
 * a page with no text layer (a scan) is read by the image reader from its picture (`pdftoppm`).
 * Plain text, Markdown and CSV are taken as they are (`DocumentText`). A document that is really
 * a picture, a recording or a video goes to the image reader or to the transcriber. A text past
 * `VERBATIM_DOCUMENT_MAX_CHARS` is cut at a page boundary and marked; the whole stays in the
 * stored file. Anything else is not read, and says so.
 */
import { decodeText, keptPages, looksBinary, pdfPages } from "@verbatim/domain/DocumentText"
import { imageSize } from "@verbatim/domain/ImageSize"
import type { DerivedSource } from "@verbatim/domain/Media"
import type { Bytes } from "@verbatim/projections/Blobs"
import { Config, Context, Duration, Effect, Layer, Option } from "effect"
import { readFile } from "node:fs/promises"
import { joined } from "./Images.js"
import { MediaError } from "./MediaError.js"
import { type ProgramError, run, version } from "./Program.js"
import { debianPackageOf } from "./Programs.js"
import { scratch } from "./Scratch.js"
import type { Reading } from "./Transcriber.js"

/** What the sender's app said the file is. */
export interface Declared {
  readonly fileName: string | null
  readonly mimeType: string | null
}

/** The readers a document may turn out to need. */
export interface OtherReaders {
  /** The image reader, for a picture or a scanned page. */
  readonly look: (image: Bytes) => Effect.Effect<Reading, MediaError>
  /** The transcriber, for a recording or a video. */
  readonly hear: (recording: Bytes) => Effect.Effect<Reading, MediaError>
}

export interface DocumentOptions {
  /** Characters of a document's text kept in the note; the rest stays in the file. */
  readonly maxChars: number
}

/** At most this many characters (4 MB of UTF-8 at worst), so a document's text always fits a message. */
export const maxDocumentChars = 250_000

export const documentConfig: Config.Config<DocumentOptions> = Config.all({
  maxChars: Config.integer("VERBATIM_DOCUMENT_MAX_CHARS").pipe(
    Config.withDefault(100_000),
    Config.validate({
      message: `VERBATIM_DOCUMENT_MAX_CHARS: a number of characters from 1,000 to ${maxDocumentChars.toLocaleString("en")}`,
      validation: (n) => n >= 1_000 && n <= maxDocumentChars
    })
  )
})

/** A document's reading and what it was read as: a document's text, a picture's or a recording's. */
export interface DocumentReading extends Reading {
  readonly source: DerivedSource
}

export class DocumentReader extends Context.Tag("@verbatim/server/DocumentReader")<DocumentReader, {
  readonly read: (document: Bytes, declared: Declared, others: OtherReaders) => Effect.Effect<DocumentReading, MediaError>
}>() {}

const fail = (permanent: boolean, reason: string) => new MediaError({ stage: "transcribe", permanent, reason })

/** What a document holds. */
type Content = "pdf" | "image" | "recording" | "text"

const startsWith = (bytes: Uint8Array, text: string, at = 0) =>
  bytes.length >= at + text.length && [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0))

/** What the bytes themselves say they are, by the signatures of the formats read. */
const sniffed = (bytes: Uint8Array): Content | null => {
  if (startsWith(bytes, "%PDF-")) return "pdf"
  if (imageSize(bytes) !== null) return "image"
  // A text's byte-order mark, before the recordings: FF FE also reads as an MPEG frame's sync.
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff) || startsWith(bytes, "\xef\xbb\xbf")) return "text"
  const recording = startsWith(bytes, "OggS") || startsWith(bytes, "fLaC") || startsWith(bytes, "ID3") || startsWith(bytes, "#!AMR") ||
    (startsWith(bytes, "RIFF") && (startsWith(bytes, "WAVE", 8) || startsWith(bytes, "AVI ", 8))) ||
    startsWith(bytes, "ftyp", 4) || (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) ||
    // An MP3 without tags: an MPEG layer III frame's sync bits.
    (bytes[0] === 0xff && bytes.length > 1 && (bytes[1]! & 0xe6) === 0xe2)
  return recording ? "recording" : null
}

const contentNames: Record<Content, string> = { pdf: "PDF", image: "image", recording: "audio or video", text: "text" }

const textExtensions = new Set(["txt", "text", "md", "markdown", "csv", "tsv", "log", "json", "vcf", "ics"])

const extensionOf = (fileName: string | null) => /\.([a-z0-9]{1,9})$/i.exec(fileName ?? "")?.[1]?.toLowerCase() ?? null

/** What the file's name and declared type say it is. */
const declaredContent = (declared: Declared): Content | null => {
  const type = (declared.mimeType ?? "").split(";")[0]!.trim().toLowerCase()
  const extension = extensionOf(declared.fileName)
  if (type === "application/pdf" || extension === "pdf") return "pdf"
  if (type.startsWith("image/")) return "image"
  if (type.startsWith("audio/") || type.startsWith("video/")) return "recording"
  if (type.startsWith("text/") || type === "application/json" || (extension !== null && textExtensions.has(extension))) return "text"
  return null
}

const poppler = (what: string) => (error: ProgramError) =>
  error.missing
    ? fail(true, `${error.program} is not installed (apt-get install ${debianPackageOf(error.program)})`)
    : /incorrect password/i.test(error.stderr)
    ? fail(true, "the PDF is protected by a password")
    : fail(!error.timedOut, `${what} (${error.message})`)

/** Page `page` of the PDF at `pdf` drawn as a PNG at `dpi` (grey for reading, in colour for showing). */
const drawPage = (pdf: string, page: number, prefix: string, dpi: number, grey: boolean) =>
  Effect.gen(function*() {
    yield* run("pdftoppm", ["-r", String(dpi), ...(grey ? ["-gray"] : []), "-png", "-singlefile", "-f", String(page), "-l", String(page), pdf, prefix], {
      timeout: Duration.minutes(2)
    }).pipe(Effect.mapError(poppler(`page ${page} could not be drawn`)))
    const data = yield* Effect.promise(() => readFile(`${prefix}.png`))
    return { chunks: [new Uint8Array(data.buffer, data.byteOffset, data.byteLength)], size: data.byteLength, mimeType: "image/png" } satisfies Bytes
  })

/** Whether the bytes are a PDF, by its signature. */
export const isPdf = (document: Bytes) => startsWith(joined(document).subarray(0, 8), "%PDF-")

/** Page `page` of a stored PDF as a PNG at 100 dpi, to show beside the text read from it. */
export const pagePng = (document: Bytes, page: number) =>
  Effect.scoped(Effect.gen(function*() {
    const dir = yield* scratch
    const path = yield* dir.write("document.pdf", document)
    return joined(yield* drawPage(path, page, dir.path("page"), 100, false))
  }))

/** Pages without a text layer read from their pictures, at most, in one document (each takes a second or two). */
export const maxPicturedPages = 100

/** `pages 1, 3 read by tesseract 5.3.0 (eng)`, by reader, for the pages read from their pictures. */
const picturedBy = (pictured: ReadonlyArray<{ readonly page: number; readonly model: string }>) =>
  [...new Set(pictured.map((p) => p.model))].map((model) => {
    const pages = pictured.filter((p) => p.model === model).map((p) => p.page)
    return `${pages.length === 1 ? "page" : "pages"} ${pages.join(", ")} read by ${model}`
  })

/** The reader over its options, once poppler has said its version (none: PDFs say it is not installed). */
export const make = (options: DocumentOptions) =>
  Effect.gen(function*() {
    const pdftotext = yield* version("pdftotext", ["-v"])

    const pdf = (document: Bytes, others: OtherReaders) =>
      Effect.scoped(Effect.gen(function*() {
        const dir = yield* scratch
        const path = yield* dir.write("document.pdf", document)
        const { stdout } = yield* run("pdftotext", ["-enc", "UTF-8", path, "-"], { timeout: Duration.minutes(5) }).pipe(
          Effect.mapError(poppler("the PDF could not be read"))
        )
        const pages = [...pdfPages(stdout.toString("utf8"))]
        // Pages without a text layer are pictures (scans): read them as images, in order, until the text is long enough.
        const pictured: Array<{ readonly page: number; readonly model: string }> = []
        let total = 0
        for (let i = 0; i < pages.length && total <= options.maxChars; i++) {
          if (pages[i]!.trim() === "" && pictured.length >= maxPicturedPages) {
            pages[i] = `[page ${i + 1} not read: only the first ${maxPicturedPages} pages without text are read from their pictures]`
          } else if (pages[i]!.trim() === "") {
            const reading = yield* Effect.either(Effect.flatMap(drawPage(path, i + 1, dir.path(`page-${i + 1}`), 200, true), others.look))
            if (reading._tag === "Left") {
              if (!reading.left.permanent) return yield* reading.left
              pages[i] = `[page ${i + 1} not read: ${reading.left.reason}]`
            } else {
              pages[i] = reading.right.text
              pictured.push({ page: i + 1, model: reading.right.model })
            }
          }
          total += pages[i]!.length + 2
        }
        const kept = keptPages(pages, options.maxChars)
        const reader = Option.getOrElse(pdftotext, () => "pdftotext")
        return {
          text: kept.text,
          model: [reader, ...picturedBy(pictured)].join("; "),
          language: null,
          segments: [],
          pages: kept.pages
        } satisfies Reading
      }))

    const text = (document: Bytes) => {
      const decoded = decodeText(joined(document))
      if (decoded === null) return Effect.fail(fail(true, "the file says it is UTF-16 text but its bytes are not"))
      if (looksBinary(decoded.text)) return Effect.fail(fail(true, "the file's bytes are not text"))
      const kept = keptPages([decoded.text], options.maxChars)
      const invalid = decoded.invalid === 0 ? "" : `, ${decoded.invalid} ${decoded.invalid === 1 ? "byte" : "bytes"} not ${decoded.encoding}`
      return Effect.succeed({ text: kept.text, model: `text (${decoded.encoding}${invalid})`, language: null, segments: [] } satisfies Reading)
    }

    const as = (source: DerivedSource) => Effect.map((reading: Reading): DocumentReading => ({ ...reading, source }))

    const read = (document: Bytes, declared: Declared, others: OtherReaders): Effect.Effect<DocumentReading, MediaError> => {
      if (document.size === 0) return Effect.fail(fail(true, "the file is empty"))
      const byName = declaredContent(declared)
      const content = sniffed(joined(document).subarray(0, 64)) ?? (byName === "text" ? "text" : null)
      if (content === null) {
        return Effect.fail(fail(true, byName === null ? "unsupported type" : `the file's bytes are not the ${contentNames[byName]} it is named as`))
      }
      switch (content) {
        case "pdf":
          return as("document")(pdf(document, others))
        case "image":
          return as("image")(others.look(document))
        case "recording":
          return as("speech")(others.hear(document))
        case "text":
          return as("document")(text(document))
      }
    }

    return DocumentReader.of({ read: (document, declared, others) => read(document, declared, others).pipe(Effect.withSpan("DocumentReader.read")) })
  })

export const layer = (options: DocumentOptions) => Layer.effect(DocumentReader, make(options))

/** The reader `VERBATIM_DOCUMENT_MAX_CHARS` sets. */
export const layerConfig = Layer.effect(DocumentReader, Effect.flatMap(documentConfig, make))

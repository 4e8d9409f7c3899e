/**
 * Reading photos and images on this machine with Tesseract OCR: the text in the image, word for
 * word in Tesseract's reading order, and nothing else (it does not describe pictures). The image
 * is decoded and turned upright in process (see `Images.ts`), and Tesseract is handed a plain
 * greyscale PNG of it, so no program parses the stranger's own file. The audit names Tesseract's version and languages.
 */
import type { Bytes } from "@verbatim/projections/Blobs"
import { Duration, Effect, Option } from "effect"
import { checkedImage, transformed } from "./Images.js"
import { MediaError } from "./MediaError.js"
import { type ProgramError, run, version } from "./Program.js"
import { debianPackageOf, ocrLanguagePackage } from "./Programs.js"

export interface TesseractOptions {
  /** Tesseract's language codes (`eng`, `deu`), read together. */
  readonly languages: ReadonlyArray<string>
  readonly timeout: Duration.Duration
}

const fail = (permanent: boolean, reason: string) => new MediaError({ stage: "transcribe", permanent, reason })

/** The most pixels handed to Tesseract: past ~12 MP it gains nothing and takes much longer. */
const ocrPixels = 12_000_000

/** The image upright, in grey, no bigger than Tesseract needs, as a PNG. */
const normalised = (bytes: Buffer, width: number, height: number) => {
  const scale = Math.min(1, Math.sqrt(ocrPixels / (width * height)))
  const fitted = { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) }
  return transformed(bytes, "decoded", (image) => image.resize({ ...fitted, fit: "inside", withoutEnlargement: true }).greyscale().png())
}

/** Tesseract's output as text: its lines as they are, trailing spaces and the page's form feed gone. */
export const ocrText = (output: string): string =>
  output.replace(/\f/g, "").split("\n").map((line) => line.trimEnd()).join("\n").replace(/\n{3,}/g, "\n\n").trim()

const fromProgram = (error: ProgramError) =>
  fail(!error.timedOut, error.missing ? `Tesseract is not installed (apt-get install ${debianPackageOf("tesseract")})` : `OCR failed: ${error.message}`)

/** Read a PNG (already normalised) with Tesseract; its text as `ocrText` gives it. */
export const recognise = (png: Uint8Array, options: TesseractOptions) =>
  run("tesseract", ["stdin", "stdout", "-l", options.languages.join("+"), "--psm", "3"], { input: png, timeout: options.timeout }).pipe(
    Effect.map(({ stdout }) => ocrText(stdout.toString("utf8"))),
    Effect.mapError(fromProgram)
  )

/** Whether `tesseract` runs on this machine. */
export const installed = Effect.map(version("tesseract"), Option.isSome)

/** `tesseract 5.3.0 (eng+deu)`: what the audit names as the reader. */
export const modelName = (tesseractVersion: string, languages: ReadonlyArray<string>) => `${tesseractVersion} (${languages.join("+")})`

/**
 * The reader, once Tesseract has said its version and that every language is installed; fails
 * naming what to install otherwise.
 */
export const make = (options: TesseractOptions) =>
  Effect.gen(function*() {
    const found = yield* version("tesseract")
    if (found._tag === "None") return yield* Effect.fail(`VERBATIM_VISION=tesseract, but tesseract is not installed (apt-get install ${debianPackageOf("tesseract")})`)
    const listed = yield* run("tesseract", ["--list-langs"], { timeout: Duration.seconds(10) }).pipe(
      Effect.map(({ stdout }) => new Set(stdout.toString().split("\n").slice(1).map((line) => line.trim()))),
      Effect.orElseSucceed(() => new Set<string>())
    )
    const missing = options.languages.filter((language) => !listed.has(language))
    if (missing.length > 0) {
      return yield* Effect.fail(
        `VERBATIM_OCR_LANGUAGES names ${missing.join(", ")}, which Tesseract does not have (apt-get install ${missing.map(ocrLanguagePackage).join(" ")})`
      )
    }
    const model = modelName(found.value, options.languages)
    const read = (image: Bytes) =>
      Effect.gen(function*() {
        const { bytes, size } = yield* checkedImage(image)
        const text = yield* recognise(yield* normalised(bytes, size.width, size.height), options)
        return { text, model, language: null, segments: [] }
      }).pipe(Effect.withSpan("Tesseract.read", { attributes: { size: image.size } }))
    return { model, read }
  })

/** Reading images on this machine with the real Tesseract (installed by `.ci/run`), on real PNGs drawn by ImageMagick, and choosing the reader from the settings. */
import { describe, expect, it } from "@effect/vitest"
import { textPng } from "@verbatim/testkit/RealMedia"
import { ConfigProvider, Duration, Effect, Either, Layer, Option } from "effect"
import * as ImageReader from "../../src/Media/ImageReader.js"
import { MediaError } from "../../src/Media/MediaError.js"
import * as Tesseract from "../../src/Media/Tesseract.js"

const asBytes = (data: Uint8Array) => ({ chunks: [data.subarray(0, 100), data.subarray(100)], size: data.length, mimeType: "image/png" })
const options = { languages: ["eng"], timeout: Duration.seconds(30) }
const failed = (reason: string) => Either.left(new MediaError({ stage: "transcribe", permanent: true, reason }))

/** The reader `layerConfig` builds from these settings, by the model it names. */
const chosen = (settings: Record<string, string>) =>
  Effect.flatMap(ImageReader.ImageReader, (reader) => Effect.succeed(reader.model)).pipe(
    Effect.provide(ImageReader.layerConfig.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(settings))))))),
    Effect.either
  )

describe("reading images with Tesseract", () => {
  it.effect("keeps the text word for word, line by line in reading order, and names Tesseract's version and languages", () =>
    Effect.gen(function*() {
      const reader = yield* Tesseract.make(options)
      const png = yield* textPng("Dentist 3 May, 15:30\nCall Ana about the sublet", 1200, 300)
      const reading = yield* reader.read(asBytes(png))
      expect(reading.text).toBe("Dentist 3 May, 15:30\nCall Ana about the sublet")
      expect(reading.model).toMatch(/^tesseract \d+\.\d+\.\d+ \(eng\)$/)
      expect(reading.model).toBe(reader.model)
      expect({ language: reading.language, segments: reading.segments }).toEqual({ language: null, segments: [] })
    }), 30_000)

  it.effect("a photo without text reads as no text at all, and bytes that are no image are refused before any program sees them", () =>
    Effect.gen(function*() {
      const reader = yield* Tesseract.make(options)
      expect((yield* reader.read(asBytes(yield* textPng(" ", 800, 600)))).text).toBe("")
      expect(yield* Effect.either(reader.read(asBytes(new TextEncoder().encode("%PDF-1.7 a document"))))).toEqual(
        failed("the file is not a PNG, JPEG, GIF or WebP image")
      )
      const png = yield* textPng("Ana", 300, 100)
      expect(yield* Effect.either(reader.read(asBytes(png.subarray(0, png.length - 200))))).toEqual(
        failed("the image could not be decoded (pngload_buffer: end of stream)")
      )
    }), 30_000)

  it.effect("a language Tesseract does not have is named with the package to install", () =>
    Effect.gen(function*() {
      expect(yield* Effect.either(Tesseract.make({ ...options, languages: ["eng", "xyz"] }))).toEqual(
        Either.left("VERBATIM_OCR_LANGUAGES names xyz, which Tesseract does not have (apt-get install tesseract-ocr-xyz)")
      )
    }))

  it.effect("the reader is Claude's vision with a key, Tesseract without one, and none when VERBATIM_VISION says so", () =>
    Effect.gen(function*() {
      const tesseract = (yield* Tesseract.make(options)).model
      expect(yield* chosen({ ANTHROPIC_API_KEY: "sk-test" })).toEqual(Either.right(Option.some("claude-sonnet-5-5")))
      expect(yield* chosen({})).toEqual(Either.right(Option.some(tesseract)))
      expect(yield* chosen({ ANTHROPIC_API_KEY: "sk-test", VERBATIM_VISION: "tesseract" })).toEqual(Either.right(Option.some(tesseract)))
      expect(yield* chosen({ VERBATIM_VISION: "anthropic" })).toEqual(Either.right(Option.none()))
      expect(yield* chosen({ VERBATIM_VISION: "none" })).toEqual(Either.right(Option.none()))
      const wrong = yield* chosen({ VERBATIM_VISION: "tesseract", VERBATIM_OCR_LANGUAGES: "eng,xyz" })
      expect(Either.isLeft(wrong) && String(wrong.left)).toBe(
        "(Invalid data at VERBATIM_VISION: \"VERBATIM_OCR_LANGUAGES names xyz, which Tesseract does not have (apt-get install tesseract-ocr-xyz)\")"
      )
    }), 30_000)
})

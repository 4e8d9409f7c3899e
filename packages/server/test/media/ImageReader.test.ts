/** Reading images with Claude's vision through the real Anthropic SDK against the fake Messages API, with real PNGs (drawn by ImageMagick) and hostile ones. */
import { describe, expect, it } from "@effect/vitest"
import { imageSize } from "@verbatim/domain/ImageSize"
import { FakeAnthropic, FakeReply } from "@verbatim/testkit/FakeAnthropic"
import { textPng } from "@verbatim/testkit/RealMedia"
import { Duration, Effect, Either, Option, Redacted } from "effect"
import { crc32 } from "node:zlib"
import * as ImageReader from "../../src/Media/ImageReader.js"
import { MediaError } from "../../src/Media/MediaError.js"

const reader = Effect.map(FakeAnthropic, (fake) =>
  ImageReader.make({ apiKey: Redacted.make("sk-vision"), model: "claude-vision-test", baseUrl: Option.some(fake.baseUrl), timeout: Duration.seconds(5) }))

const asBytes = (data: Uint8Array) => ({ chunks: [data.subarray(0, 100), data.subarray(100)], size: data.length, mimeType: "image/png" })

/** The images the fake received: their type and size as decoded from the bytes sent. */
const imagesSent = Effect.map(FakeAnthropic, (fake) => fake.requests).pipe(
  Effect.flatten,
  Effect.map((requests) =>
    requests.flatMap((request) => {
      const body = request.body as { messages: ReadonlyArray<{ content: ReadonlyArray<{ type: string; source?: { media_type: string; data: string } }> }> }
      return body.messages.flatMap((m) => m.content).flatMap((block) =>
        block.source === undefined ? [] : [{ declared: block.source.media_type, actual: imageSize(Buffer.from(block.source.data, "base64")) }]
      )
    })
  )
)

/** A PNG signature and header chunk (CRC included) of the given size, with no image data after it. */
const pngHeader = (width: number, height: number): Uint8Array => {
  const ihdr = Buffer.alloc(17)
  ihdr.write("IHDR", 0, "latin1")
  ihdr.writeUInt32BE(width, 4)
  ihdr.writeUInt32BE(height, 8)
  ihdr.set([8, 2, 0, 0, 0], 12)
  const chunk = Buffer.alloc(25)
  chunk.writeUInt32BE(13, 0)
  ihdr.copy(chunk, 4)
  chunk.writeUInt32BE(crc32(ihdr), 21)
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk])
}

const failed = (permanent: boolean, reason: string) => Either.left(new MediaError({ stage: "transcribe", permanent, reason }))

describe("reading images with Claude's vision", () => {
  it.effect("a large screenshot is scaled to 1568 px on its long edge and its text kept word for word", () =>
    Effect.gen(function*() {
      const fake = yield* FakeAnthropic
      const png = yield* textPng("Dentist 3 May, 15:30", 2400, 1200)
      yield* fake.script(FakeReply.toolUse({ text: "Dentist 3 May, 15:30\n", description: "" }))
      const reading = yield* (yield* reader).read(asBytes(png))
      expect(reading).toEqual({ text: "Dentist 3 May, 15:30", model: "claude-vision-test", language: null, segments: [] })
      expect(yield* imagesSent).toEqual([{ declared: "image/png", actual: { mediaType: "image/png", width: 1568, height: 784 } }])
    }).pipe(Effect.provide(FakeAnthropic.layer)))

  it.effect("an image within the limit goes as it is; one without text reads as its description", () =>
    Effect.gen(function*() {
      const fake = yield* FakeAnthropic
      const png = yield* textPng(" ", 800, 600)
      yield* fake.script(FakeReply.toolUse({ text: "", description: "A blank white card." }))
      expect((yield* (yield* reader).read(asBytes(png))).text).toBe("A blank white card.")
      const [request] = yield* fake.requests
      const sent = (request?.body as { messages: [{ content: [{ source: { data: string } }] }] }).messages[0].content[0].source.data
      expect(Buffer.from(sent, "base64").equals(Buffer.from(png))).toBe(true)
    }).pipe(Effect.provide(FakeAnthropic.layer)))

  it.effect("faults: a refusal and a file that is no image are final; a 500 and a reply without a reading may pass later", () =>
    Effect.gen(function*() {
      const fake = yield* FakeAnthropic
      const png = yield* textPng("Ana", 300, 100)
      const read = (data: Uint8Array) => Effect.flatMap(reader, (r) => Effect.either(r.read(asBytes(data))))
      yield* fake.script(FakeReply.refusal(), FakeReply.serverError(), FakeReply.toolUse({ wrong: true }))
      expect(yield* read(png)).toEqual(failed(true, "the vision model declined to read the image"))
      expect(yield* read(png)).toEqual(failed(false, "the vision model answered HTTP 500: 500 {\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"fake api_error\"}}"))
      expect(yield* read(png)).toEqual(failed(false, "the vision model's reading was not text"))
      expect(yield* read(new TextEncoder().encode("%PDF-1.7 a document"))).toEqual(failed(true, "the file is not a PNG, JPEG, GIF or WebP image"))
      expect((yield* fake.requests).length).toBe(3)
    }).pipe(Effect.provide(FakeAnthropic.layer)))

  it.effect("an answer in prose instead of the tool is the reading, and its model says how it came", () =>
    Effect.gen(function*() {
      const fake = yield* FakeAnthropic
      const png = yield* textPng("Call Ana back", 600, 200)
      yield* fake.script(FakeReply.text("Call Ana back\n"), FakeReply.text("  "))
      const read = Effect.flatMap(reader, (r) => Effect.either(r.read(asBytes(png))))
      expect(yield* read).toEqual(Either.right({
        text: "Call Ana back",
        model: "claude-vision-test (answered in text, not through its tool)",
        language: null,
        segments: []
      }))
      expect(yield* read).toEqual(failed(false, "the vision model gave no reading"))
    }).pipe(Effect.provide(FakeAnthropic.layer)))

  it.effect("an image of more pixels than are read is refused before it is decoded; one that does not decode is refused as it scales", () =>
    Effect.gen(function*() {
      const fake = yield* FakeAnthropic
      const read = (data: Uint8Array) => Effect.flatMap(reader, (r) => Effect.either(r.read(asBytes(data))))
      // A PNG whose header says 20,000 × 20,000 and whose pixels never come: decoding it would need gigabytes.
      expect(yield* read(pngHeader(20_000, 20_000))).toEqual(failed(true, "the image is 20000×20000 pixels, more than the 100 megapixels read"))
      // Within the limit but past the edge, and no image data after the header.
      expect(yield* read(pngHeader(4_000, 3_000))).toEqual(
        failed(true, "the image could not be scaled down (Input buffer has corrupt header: pngload_buffer: end of stream)")
      )
      expect((yield* fake.requests).length).toBe(0)
    }).pipe(Effect.provide(FakeAnthropic.layer)))

  it.effect("without vision configured, each image says which settings", () =>
    Effect.gen(function*() {
      expect(yield* Effect.either(ImageReader.none.read(asBytes(new Uint8Array(10))))).toEqual(
        failed(true, "no image reader is configured (VERBATIM_VISION: ANTHROPIC_API_KEY, or tesseract installed)")
      )
    }))
})

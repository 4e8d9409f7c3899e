/**
 * Reading photos and images with Claude's vision through the Anthropic SDK: the text visible in
 * the image, word for word, or, when there is none, a short factual description. Images whose
 * long edge is over 1568 px are scaled down first, as the Messages API would do itself after the
 * upload: in process by libvips (`sharp`), never by a program run on untrusted bytes, and an
 * image that would decode to more than `maxPixels` is refused before it is decoded.
 */
import Anthropic from "@anthropic-ai/sdk"
import { imageSize } from "@verbatim/domain/ImageSize"
import { defaultModel } from "@verbatim/planner/AnthropicLanguageModel"
import type { Bytes } from "@verbatim/projections/Blobs"
import { Config, Context, Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import sharp from "sharp"
import { MediaError } from "./MediaError.js"
import type { Reading } from "./Transcriber.js"

/** The longest edge Claude reads without scaling an image down. */
export const maxEdge = 1568

export class ImageReader extends Context.Tag("@verbatim/server/ImageReader")<ImageReader, {
  /** The model asked, or none when no reader is configured. */
  readonly model: Option.Option<string>
  readonly read: (image: Bytes) => Effect.Effect<Reading, MediaError>
}>() {}

export interface VisionOptions {
  readonly apiKey: Redacted.Redacted
  readonly model: string
  readonly baseUrl: Option.Option<string>
  readonly timeout: Duration.Duration
}

/** Anthropic when `VERBATIM_VISION` is `anthropic` (the default) and a key is set; none otherwise. */
export const visionConfig: Config.Config<Option.Option<VisionOptions>> = Config.all({
  vision: Config.literal("anthropic", "none")("VERBATIM_VISION").pipe(Config.withDefault("anthropic" as const)),
  apiKey: Config.option(Config.redacted("ANTHROPIC_API_KEY")),
  model: Config.string("VERBATIM_VISION_MODEL").pipe(Config.withDefault(defaultModel)),
  baseUrl: Config.option(Config.string("ANTHROPIC_BASE_URL")),
  timeout: Config.integer("VERBATIM_VISION_TIMEOUT").pipe(Config.withDefault(60), Config.map(Duration.seconds))
}).pipe(Config.map(({ apiKey, vision, ...rest }) =>
  vision === "none" ? Option.none() : Option.map(apiKey, (key) => ({ apiKey: key, ...rest }))
))

const fail = (permanent: boolean, reason: string) => new MediaError({ stage: "transcribe", permanent, reason })

const tool = {
  name: "record_image_text",
  description: "Record what the image says.",
  input_schema: {
    type: "object" as const,
    properties: {
      text: { type: "string", description: "Every piece of text visible in the image, word for word, in reading order; empty when there is none." },
      description: { type: "string", description: "Only when there is no text: one short factual sentence on what the image shows." }
    },
    required: ["text", "description"]
  }
}

const instructions = "Read this image for a notebook. Call record_image_text with the text visible in it, copied word for word " +
  "(keep line breaks, do not translate, correct or summarise). If the image has no text, leave text empty and describe " +
  "what it shows in one short factual sentence; otherwise leave the description empty."

const ImageText = Schema.Struct({ text: Schema.String, description: Schema.optional(Schema.String) })

/** The text Claude read, or its description of an image without text. */
export const readingText = (found: typeof ImageText.Type): string =>
  found.text.trim() !== "" ? found.text.trim() : (found.description ?? "").trim()

const joined = (image: Bytes) => Buffer.concat(image.chunks.map((chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)))

/** The most pixels an image may have: past it, decoding alone could take the process's memory (a decompression bomb). */
export const maxPixels = 100_000_000

/** How long scaling one image may take before it is given up. */
const scaleSeconds = 30

/**
 * The image turned upright and scaled so that its long edge is at most `maxEdge`, in its own
 * format. libvips decodes on the thread pool, so the event loop is not held meanwhile.
 */
const scaledDown = (bytes: Buffer) =>
  Effect.tryPromise({
    try: () =>
      sharp(bytes, { limitInputPixels: maxPixels, failOn: "error" })
        .rotate()
        .resize(maxEdge, maxEdge, { fit: "inside", withoutEnlargement: true })
        .timeout({ seconds: scaleSeconds })
        .toBuffer(),
    catch: (error) =>
      fail(true, `the image could not be scaled down (${error instanceof Error ? error.message : String(error)})`)
  })

const statusFailure = (status: number, message: string) =>
  fail(status === 400 || status === 413 || status === 422, `the vision model answered HTTP ${status}: ${message}`)

/** The reader over one SDK client. */
export const make = (options: VisionOptions): ImageReader["Type"] => {
  const client = new Anthropic({
    apiKey: Redacted.value(options.apiKey),
    baseURL: Option.getOrElse(options.baseUrl, () => "https://api.anthropic.com"),
    timeout: Duration.toMillis(options.timeout),
    maxRetries: 0,
    logLevel: "off"
  })
  return ImageReader.of({
    model: Option.some(options.model),
    read: (image) =>
      Effect.gen(function*() {
        let bytes: Buffer = joined(image)
        const size = imageSize(bytes)
        if (size === null) return yield* fail(true, "the file is not a PNG, JPEG, GIF or WebP image")
        if (size.width * size.height > maxPixels) {
          return yield* fail(true, `the image is ${size.width}×${size.height} pixels, more than the ${maxPixels / 1_000_000} megapixels read`)
        }
        if (Math.max(size.width, size.height) > maxEdge) bytes = yield* scaledDown(bytes)
        const message = yield* Effect.tryPromise({
          try: (signal) =>
            client.post<Anthropic.Message>("/v1/messages", {
              body: {
                model: options.model,
                max_tokens: 4096,
                tools: [tool],
                tool_choice: { type: "auto" },
                messages: [{
                  role: "user",
                  content: [
                    { type: "image", source: { type: "base64", media_type: size.mediaType, data: bytes.toString("base64") } },
                    { type: "text", text: instructions }
                  ]
                }]
              },
              signal,
              maxRetries: 0
            }),
          catch: (error) =>
            error instanceof Anthropic.APIConnectionTimeoutError
              ? fail(false, `the vision model did not answer within ${Duration.format(options.timeout)}`)
              : error instanceof Anthropic.APIConnectionError
              ? fail(false, "could not reach the vision model")
              : error instanceof Anthropic.APIError && typeof error.status === "number"
              ? statusFailure(error.status, error.message)
              : fail(false, "the vision model's answer could not be read")
        })
        if (message.stop_reason === "refusal") return yield* fail(true, "the vision model declined to read the image")
        const call = message.content.find((block): block is Anthropic.ToolUseBlock => block.type === "tool_use" && block.name === tool.name)
        if (call === undefined) return yield* fail(false, "the vision model gave no reading")
        const found = yield* Schema.decodeUnknown(ImageText)(call.input).pipe(
          Effect.mapError(() => fail(false, "the vision model's reading was not text"))
        )
        return { text: readingText(found), model: message.model, language: null, segments: [] }
      }).pipe(Effect.withSpan("ImageReader.read", { attributes: { model: options.model, size: image.size } }))
  })
}

/** Without vision: nothing is read, and each photo says why. */
export const none: ImageReader["Type"] = ImageReader.of({
  model: Option.none(),
  read: () => Effect.fail(fail(true, "no image reader is configured (VERBATIM_VISION and ANTHROPIC_API_KEY)"))
})

export const layer = (options: VisionOptions) => Layer.succeed(ImageReader, make(options))

/** The reader `VERBATIM_VISION` and the Anthropic settings describe. */
export const layerConfig = Layer.effect(ImageReader, Effect.map(visionConfig, Option.match({ onNone: () => none, onSome: make })))

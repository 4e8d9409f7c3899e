/**
 * Reading photos and images with Claude's vision through the Anthropic SDK: the text visible in
 * the image, word for word, or, when there is none, a short factual description. Images whose
 * long edge is over 1568 px are scaled down first, as the Messages API would do itself after the
 * upload, in process (see `Images.ts`).
 */
import Anthropic from "@anthropic-ai/sdk"
import { defaultModel } from "@verbatim/planner/AnthropicLanguageModel"
import type { Bytes } from "@verbatim/projections/Blobs"
import { Config, ConfigError, Context, Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import { checkedImage, transformed } from "./Images.js"
import { MediaError } from "./MediaError.js"
import { defaultOcrLanguages } from "./Programs.js"
import * as Tesseract from "./Tesseract.js"
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

/** Which reader reads images: Claude's vision, Tesseract on this machine, or none. */
export type Vision = "anthropic" | "tesseract" | "none"

/** The settings of every image reader; which one reads is `vision`, or by what is at hand when unset. */
export const visionConfig = Config.all({
  vision: Config.option(Config.literal("anthropic", "tesseract", "none")("VERBATIM_VISION")),
  apiKey: Config.option(Config.redacted("ANTHROPIC_API_KEY")),
  model: Config.string("VERBATIM_VISION_MODEL").pipe(Config.withDefault(defaultModel)),
  baseUrl: Config.option(Config.string("ANTHROPIC_BASE_URL")),
  timeout: Config.integer("VERBATIM_VISION_TIMEOUT").pipe(Config.withDefault(60), Config.map(Duration.seconds)),
  languages: Config.string("VERBATIM_OCR_LANGUAGES").pipe(
    Config.withDefault(defaultOcrLanguages.join(",")),
    Config.map((text) => text.split(/[\s,+]+/).filter((code) => code !== "")),
    Config.validate({ message: "VERBATIM_OCR_LANGUAGES: Tesseract language codes such as eng or eng,deu", validation: (codes) => codes.length > 0 })
  )
})

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

/** How the audit names a reading the model gave in prose instead of through the tool. */
export const answeredInText = "(answered in text, not through its tool)"

/** The prose of an answer without a tool call: its text blocks, joined. */
const textAnswer = (message: Anthropic.Message): string =>
  message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n").trim()

/**
 * The image scaled so that its long edge is at most `maxEdge`, in its own format. libvips decodes
 * on the thread pool, so the event loop is not held meanwhile.
 */
const scaledDown = (bytes: Buffer) =>
  transformed(bytes, "scaled down", (image) => image.resize(maxEdge, maxEdge, { fit: "inside", withoutEnlargement: true }))

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
        const checked = yield* checkedImage(image)
        const size = checked.size
        let bytes = checked.bytes
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
        if (call === undefined) {
          const prose = textAnswer(message)
          if (prose === "") return yield* fail(false, "the vision model gave no reading")
          return { text: prose, model: `${message.model} ${answeredInText}`, language: null, segments: [] }
        }
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
  read: () => Effect.fail(fail(true, "no image reader is configured (VERBATIM_VISION: ANTHROPIC_API_KEY, or tesseract installed)"))
})

export const layer = (options: VisionOptions) => Layer.succeed(ImageReader, make(options))

/**
 * The reader `VERBATIM_VISION` names; unset, Claude's vision when an Anthropic key is set, else
 * Tesseract when it is installed, else none. A reader named but not usable stops the start with
 * what to set or install.
 */
export const layerConfig = Layer.effect(
  ImageReader,
  Effect.gen(function*() {
    const settings = yield* visionConfig
    const vision: Vision = Option.isSome(settings.vision)
      ? settings.vision.value
      : Option.isSome(settings.apiKey)
      ? "anthropic"
      : (yield* Tesseract.installed)
      ? "tesseract"
      : "none"
    if (vision === "tesseract") {
      const reader = yield* Tesseract.make({ languages: settings.languages, timeout: settings.timeout }).pipe(
        Effect.mapError((message) => ConfigError.InvalidData(["VERBATIM_VISION"], message))
      )
      return ImageReader.of({ model: Option.some(reader.model), read: reader.read })
    }
    return vision === "anthropic" && Option.isSome(settings.apiKey)
      ? make({ apiKey: settings.apiKey.value, model: settings.model, baseUrl: settings.baseUrl, timeout: settings.timeout })
      : none
  })
)

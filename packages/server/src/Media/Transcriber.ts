/**
 * Speech to text through any server that speaks OpenAI's `POST /v1/audio/transcriptions`: OpenAI
 * itself, whisper.cpp's `whisper-server`, speaches / faster-whisper, Groq. The official `openai`
 * SDK does the multipart upload against `VERBATIM_TRANSCRIBE_URL`; the answer is `verbose_json`,
 * so every segment and its no-speech probability is kept, and probable silence left out of the text.
 */
import type { PageSpan, TranscriptSegment } from "@verbatim/domain/Media"
import { type RawSegment, segmentsOf, spokenText } from "@verbatim/domain/Transcript"
import type { Bytes } from "@verbatim/projections/Blobs"
import { Config, Context, Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import OpenAI, { toFile } from "openai"
import { MediaError } from "./MediaError.js"

/** Text read from an attachment, as a `MediaTranscribed` event records it. */
export interface Reading {
  readonly text: string
  readonly model: string
  readonly language: string | null
  readonly segments: ReadonlyArray<TranscriptSegment>
  /** What the reader found when it found no text (`no sound`), when it says. */
  readonly blank?: string
  /** Where each page of a document lies in `text`. */
  readonly pages?: ReadonlyArray<PageSpan>
}

/** What the upload is called and what it holds: servers tell formats apart by the file name's extension. */
export interface Upload {
  readonly fileName: string
  readonly mimeType: string | null
}

export class Transcriber extends Context.Tag("@verbatim/server/Transcriber")<Transcriber, {
  /** The model asked, or none when no transcription server is configured. */
  readonly model: Option.Option<string>
  /** The largest upload the server takes, in bytes; longer audio is cut into parts under it. */
  readonly maxUpload: number
  /** The speech in the audio; `names` (the user's contacts) are passed as the prompt so they are spelled right. */
  readonly transcribe: (audio: Bytes, upload: Upload, names: ReadonlyArray<string>) => Effect.Effect<Reading, MediaError>
}>() {}

export interface TranscriberOptions {
  /** The API's base, `/v1` included: `https://api.openai.com/v1`, `http://127.0.0.1:8080/v1`. */
  readonly baseUrl: string
  readonly apiKey: Option.Option<Redacted.Redacted>
  readonly model: string
  /** ISO-639-1; none: the server detects it. */
  readonly language: Option.Option<string>
  readonly timeout: Duration.Duration
  /** The largest upload the server takes, in bytes (OpenAI's: 25 MB). */
  readonly maxUpload: number
}

const optionalString = (name: string) =>
  Config.string(name).pipe(Config.withDefault(""), Config.map((value) => Option.liftPredicate(value.trim(), (s) => s !== "")))

/** OpenAI's upload limit, 25 MB. */
export const defaultMaxUpload = 25 * 1024 * 1024

/** The options from the environment; none when `VERBATIM_TRANSCRIBE_URL` is unset or empty. */
export const transcriberConfig: Config.Config<Option.Option<TranscriberOptions>> = Config.all({
  baseUrl: optionalString("VERBATIM_TRANSCRIBE_URL"),
  apiKey: Config.option(Config.redacted("VERBATIM_TRANSCRIBE_API_KEY")),
  model: Config.string("VERBATIM_TRANSCRIBE_MODEL").pipe(Config.withDefault("whisper-1")),
  language: optionalString("VERBATIM_TRANSCRIBE_LANGUAGE"),
  timeout: Config.integer("VERBATIM_TRANSCRIBE_TIMEOUT").pipe(Config.withDefault(120), Config.map(Duration.seconds)),
  maxUpload: Config.integer("VERBATIM_TRANSCRIBE_MAX_BYTES").pipe(
    Config.withDefault(defaultMaxUpload),
    Config.validate({ message: "VERBATIM_TRANSCRIBE_MAX_BYTES: a number of bytes of at least 65536", validation: (n) => n >= 65_536 })
  )
}).pipe(Config.map(({ baseUrl, ...rest }) => Option.map(baseUrl, (url) => ({ baseUrl: url.replace(/\/+$/, ""), ...rest }))))

/** The part of a `verbose_json` answer kept; servers other than OpenAI leave fields out. */
const VerboseTranscript = Schema.Struct({
  text: Schema.String,
  language: Schema.optional(Schema.NullOr(Schema.String)),
  segments: Schema.optional(Schema.Array(Schema.Struct({
    start: Schema.Number,
    end: Schema.Number,
    text: Schema.String,
    no_speech_prob: Schema.optional(Schema.Number),
    avg_logprob: Schema.optional(Schema.Number)
  })))
})

const fail = (permanent: boolean, reason: string) => new MediaError({ stage: "transcribe", permanent, reason })

/** Statuses that say this upload can never be transcribed (bad format, too large); the rest may pass later. */
const permanentStatuses = new Set([400, 404, 413, 415, 422])

const fromSdkError = (error: unknown, timeout: Duration.Duration): MediaError => {
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return fail(false, `the transcription server did not answer within ${Duration.format(timeout)}`)
  }
  if (error instanceof OpenAI.APIConnectionError) return fail(false, "could not reach the transcription server")
  if (error instanceof OpenAI.APIError && typeof error.status === "number") {
    const detail = (error.error as { readonly message?: unknown } | undefined)?.message
    return fail(
      permanentStatuses.has(error.status),
      `the transcription server answered HTTP ${error.status}${typeof detail === "string" ? `: ${detail}` : ""}`
    )
  }
  return fail(false, `the transcription server's answer could not be read`)
}

/** The transcriber over one SDK client. */
export const make = (options: TranscriberOptions): Transcriber["Type"] => {
  const client = new OpenAI({
    // Local servers take any key; the SDK insists on one.
    apiKey: Option.match(options.apiKey, { onNone: () => "no-key", onSome: Redacted.value }),
    baseURL: options.baseUrl,
    timeout: Duration.toMillis(options.timeout),
    // The media worker retries with its own backoff and records every attempt.
    maxRetries: 0
  })
  return Transcriber.of({
    model: Option.some(options.model),
    maxUpload: options.maxUpload,
    transcribe: (audio, upload, names) =>
      Effect.gen(function*() {
        const answer = yield* Effect.tryPromise({
          try: async (signal) =>
            client.audio.transcriptions.create({
              file: await toFile(new Blob(audio.chunks as Array<Uint8Array<ArrayBuffer>>), upload.fileName, upload.mimeType === null ? {} : { type: upload.mimeType }),
              model: options.model,
              response_format: "verbose_json",
              timestamp_granularities: ["segment"],
              ...(names.length === 0 ? {} : { prompt: names.join(", ") }),
              ...Option.match(options.language, { onNone: () => ({}), onSome: (language) => ({ language }) })
            }, { signal }) as Promise<unknown>,
          catch: (error) => fromSdkError(error, options.timeout)
        })
        const transcript = yield* Schema.decodeUnknown(VerboseTranscript)(answer).pipe(
          Effect.mapError(() => fail(false, "the transcription server's answer was not a transcript"))
        )
        const raw: ReadonlyArray<RawSegment> = (transcript.segments ?? []).map((segment) => ({
          start: segment.start,
          end: segment.end,
          text: segment.text,
          noSpeechProb: segment.no_speech_prob ?? null,
          avgLogprob: segment.avg_logprob ?? null
        }))
        const segments = segmentsOf(raw)
        return {
          text: spokenText(transcript.text, segments),
          model: options.model,
          language: transcript.language ?? Option.getOrNull(options.language),
          segments
        }
      }).pipe(Effect.withSpan("Transcriber.transcribe", { attributes: { model: options.model, size: audio.size } }))
  })
}

/** Without a transcription server: nothing is transcribed, and each voice note says why. */
export const none: Transcriber["Type"] = Transcriber.of({
  model: Option.none(),
  maxUpload: defaultMaxUpload,
  transcribe: () => Effect.fail(fail(true, "no transcription server is configured (VERBATIM_TRANSCRIBE_URL)"))
})

/** The transcriber over explicit options. */
export const layer = (options: TranscriberOptions) => Layer.succeed(Transcriber, make(options))

/** The transcriber `VERBATIM_TRANSCRIBE_*` describe, or `none` without a URL. */
export const layerConfig = Layer.effect(
  Transcriber,
  Effect.map(transcriberConfig, Option.match({ onNone: () => none, onSome: make }))
)

/** A file name servers will recognise, from the attachment's own name or its type. */
export const uploadName = (fileName: string | null, mimeType: string | null, kind: string): string => {
  if (fileName !== null && /\.[a-z0-9]{2,4}$/i.test(fileName)) return fileName
  const type = (mimeType ?? "").split(";")[0]?.trim().toLowerCase() ?? ""
  const extension = extensions[type] ?? "ogg"
  return `${kind}.${extension}`
}

const extensions: Record<string, string> = {
  "audio/ogg": "ogg",
  "audio/opus": "ogg",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
  "audio/mp4": "m4a",
  "audio/m4a": "m4a",
  "audio/x-m4a": "m4a",
  "audio/aac": "m4a",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/wave": "wav",
  "audio/webm": "webm",
  "audio/flac": "flac",
  "audio/amr": "amr",
  "video/mp4": "mp4"
}

/**
 * A fake OpenAI-compatible transcription server on 127.0.0.1: `POST /v1/audio/transcriptions`
 * parsed as the real multipart upload it is (the platform's own `FormData` parser), the audio
 * checked to be a real WAV or OGG file, every upload recorded, and each answered with what the
 * test queued: a `verbose_json` transcript, an HTTP error, garbage, or no answer at all.
 */
import { Context, Effect, Layer, type Scope } from "effect"
import { serveOnLoopback } from "./internal/jsonServer.js"

/** One upload as the server received it. */
export interface TranscriptionUpload {
  readonly authorization: string | null
  readonly model: string | null
  readonly prompt: string | null
  readonly language: string | null
  readonly responseFormat: string | null
  readonly fileName: string
  readonly fileType: string
  readonly bytes: Uint8Array
  /** `"wav"` or `"ogg"`, by the file's magic bytes. */
  readonly container: "wav" | "ogg"
  /** Seconds of audio, from the WAV header or the last OGG page. */
  readonly seconds: number | null
}

/** A segment of a scripted transcript; the probabilities default to confident speech. */
export interface ScriptedSegment {
  readonly text: string
  readonly noSpeechProb?: number
  readonly avgLogprob?: number
}

export type TranscriptionAnswer =
  | { readonly _tag: "Transcript"; readonly segments: ReadonlyArray<ScriptedSegment>; readonly language?: string }
  | { readonly _tag: "Status"; readonly status: number; readonly message: string }
  | { readonly _tag: "Garbage"; readonly body: string }
  | { readonly _tag: "Hang" }

/** A transcript answer: plain strings are confident speech (Whisper puts a space before each segment). */
export const transcript = (...segments: ReadonlyArray<string | ScriptedSegment>): Extract<TranscriptionAnswer, { _tag: "Transcript" }> => ({
  _tag: "Transcript",
  segments: segments.map((segment) => typeof segment === "string" ? { text: ` ${segment}` } : segment)
})

const containerOf = (bytes: Uint8Array): "wav" | "ogg" | null => {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to))
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WAVE") return "wav"
  if (ascii(0, 4) === "OggS") return "ogg"
  return null
}

/** Seconds of a PCM WAV: data bytes over the byte rate in its `fmt ` chunk. */
const wavSeconds = (bytes: Uint8Array): number | null => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let byteRate = 0
  for (let at = 12; at + 8 <= bytes.length;) {
    const id = String.fromCharCode(...bytes.subarray(at, at + 4))
    const size = view.getUint32(at + 4, true)
    if (id === "fmt ") byteRate = view.getUint32(at + 16, true)
    // espeak-ng streams to a pipe with 0x7fffffff as the data size: count what follows.
    if (id === "data") return byteRate === 0 ? null : Math.min(size, bytes.length - at - 8) / byteRate
    at += 8 + size + (size % 2)
  }
  return null
}

/** Seconds of an OGG/Opus file: the last page's granule position (48 kHz samples) less the pre-skip in its `OpusHead`. */
const oggSeconds = (bytes: Uint8Array): number | null => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf("OpusHead")
  const preSkip = head >= 0 && head + 12 <= bytes.length ? view.getUint16(head + 10, true) : 0
  const last = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).lastIndexOf("OggS")
  if (last < 0 || last + 14 > bytes.length) return null
  const granule = Number(view.getBigInt64(last + 6, true))
  return granule <= 0 ? null : Math.max(0, granule - preSkip) / 48_000
}

const verbose = (answer: Extract<TranscriptionAnswer, { _tag: "Transcript" }>, seconds: number) => {
  const step = answer.segments.length === 0 ? 0 : seconds / answer.segments.length
  const segments = answer.segments.map((segment, id) => ({
    id,
    seek: 0,
    start: Math.round(id * step * 100) / 100,
    end: Math.round((id + 1) * step * 100) / 100,
    text: segment.text,
    tokens: [50364],
    temperature: 0,
    avg_logprob: segment.avgLogprob ?? -0.25,
    compression_ratio: 1.2,
    no_speech_prob: segment.noSpeechProb ?? 0.01
  }))
  return { task: "transcribe", language: answer.language ?? "english", duration: seconds, text: segments.map((s) => s.text).join(""), segments }
}

export class FakeTranscriber extends Context.Tag("@verbatim/testkit/FakeTranscriber")<FakeTranscriber, {
  /** `http://127.0.0.1:<port>/v1`, for `VERBATIM_TRANSCRIBE_URL`. */
  readonly baseUrl: string
  readonly uploads: Effect.Effect<ReadonlyArray<TranscriptionUpload>>
  /** Answer the next uploads with these, in order; once they run out, uploads are answered 500. */
  readonly answerNext: (...answers: ReadonlyArray<TranscriptionAnswer>) => Effect.Effect<void>
}>() {
  static readonly make: Effect.Effect<FakeTranscriber["Type"], never, Scope.Scope> = Effect.gen(function*() {
    const uploads: Array<TranscriptionUpload> = []
    const answers: Array<TranscriptionAnswer> = []
    const origin = yield* serveOnLoopback((request, _text, response, raw) => {
      const json = (status: number, body: unknown) => {
        response.writeHead(status, { "content-type": "application/json" })
        response.end(JSON.stringify(body))
      }
      const error = (status: number, message: string) =>
        json(status, { error: { message, type: "invalid_request_error", param: null, code: null } })
      if (request.method !== "POST" || request.url !== "/v1/audio/transcriptions") return error(404, `no route ${request.url}`)
      const contentType = request.headers["content-type"] ?? ""
      void new Response(raw, { headers: { "content-type": contentType } }).formData().then(
        async (form) => {
          const file = form.get("file")
          if (!(file instanceof File)) return error(400, "file is required")
          const bytes = new Uint8Array(await file.arrayBuffer())
          const container = containerOf(bytes)
          if (container === null) return error(400, "Invalid file format. Supported formats: ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']")
          const field = (name: string) => {
            const value = form.get(name)
            return typeof value === "string" ? value : null
          }
          const seconds = container === "wav" ? wavSeconds(bytes) : oggSeconds(bytes)
          uploads.push({
            authorization: request.headers.authorization ?? null,
            model: field("model"),
            prompt: field("prompt"),
            language: field("language"),
            responseFormat: field("response_format"),
            fileName: file.name,
            fileType: file.type,
            bytes,
            container,
            seconds
          })
          const answer = answers.shift() ?? { _tag: "Status", status: 500, message: "no transcript scripted" }
          switch (answer._tag) {
            case "Transcript":
              return json(200, verbose(answer, seconds ?? 1))
            case "Status":
              return error(answer.status, answer.message)
            case "Garbage":
              response.writeHead(200, { "content-type": "application/json" })
              return response.end(answer.body)
            case "Hang":
              return
          }
        },
        () => error(400, "the body is not multipart/form-data")
      )
    })
    return FakeTranscriber.of({
      baseUrl: `${origin}/v1`,
      uploads: Effect.sync(() => [...uploads]),
      answerNext: (...next) => Effect.sync(() => void answers.push(...next))
    })
  })

  static readonly layer: Layer.Layer<FakeTranscriber> = Layer.scoped(FakeTranscriber, FakeTranscriber.make)
}

/**
 * The speech in any recording: a voice note or audio file within the transcriber's upload limit
 * goes as it is; a video, a video note, or anything larger has its audio track taken out by
 * ffmpeg (mono Opus, 16 kHz: an hour is about 11 MB). Audio still over the limit is cut at
 * silences into parts under it (`AudioParts`), transcribed in order, and joined, each segment's
 * time counted from the start of the whole. A part the transcriber can never take is named in
 * the text where it would have been (`[video, 12:40–18:02 not transcribed: …]`) and the rest kept; a
 * part that may pass later fails the whole reading, to be tried again. A recording without an
 * audio track reads as having no sound.
 */
import { audioParts, silencesOf } from "@verbatim/domain/AudioParts"
import { clock, type TranscriptSegment } from "@verbatim/domain/Media"
import type { Bytes } from "@verbatim/projections/Blobs"
import { Duration, Effect, Either, Schema } from "effect"
import { readFile, stat } from "node:fs/promises"
import { MediaError } from "./MediaError.js"
import { type ProgramError, run } from "./Program.js"
import { debianPackageOf } from "./Programs.js"
import { scratch } from "./Scratch.js"
import type { Reading, Transcriber, Upload } from "./Transcriber.js"

/** What the transcriber is asked, besides the audio: the user's contacts, to spell them right. */
export interface Hearing {
  readonly transcriber: Transcriber["Type"]
  /** The transcriber's model, for the reading. */
  readonly model: string
  readonly names: ReadonlyArray<string>
  /** What the recording is (`video`, `voice note`), to name a part that was not transcribed. */
  readonly what: string
}

const fail = (permanent: boolean, reason: string) => new MediaError({ stage: "transcribe", permanent, reason })

const fromProgram = (what: string) => (error: ProgramError) =>
  error.missing ? fail(true, `${error.program} is not installed (apt-get install ${debianPackageOf(error.program)})`) : fail(!error.timedOut, `${what} (${error.message})`)

const Probe = Schema.Struct({
  streams: Schema.optionalWith(Schema.Array(Schema.Struct({ codec_type: Schema.optional(Schema.String) })), { default: () => [] }),
  format: Schema.optional(Schema.Struct({ duration: Schema.optional(Schema.String) }))
})

/** The file's streams and length, as ffprobe reads them. */
const probe = (path: string) =>
  run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type:format=duration", "-of", "json", path], { timeout: Duration.minutes(1) }).pipe(
    Effect.mapError(fromProgram("the file could not be read as audio or video")),
    Effect.flatMap(({ stdout }) =>
      Schema.decodeUnknown(Schema.parseJson(Probe))(stdout.toString("utf8")).pipe(
        Effect.mapError(() => fail(true, "the file could not be read as audio or video (ffprobe gave no streams)"))
      )
    ),
    Effect.map((found) => ({
      hasAudio: found.streams.some((s) => s.codec_type === "audio"),
      seconds: Number(found.format?.duration ?? "0") || 0
    }))
  )

/** Long enough for ffmpeg to go through hours of audio. */
const encodeTimeout = Duration.minutes(15)

/** The first audio track as mono 16 kHz Opus in OGG (what Whisper hears best per byte). */
const extract = (input: string, output: string, from?: { readonly start: number; readonly end: number }) =>
  run("ffmpeg", [
    "-nostdin", "-v", "error", "-y",
    ...(from === undefined ? [] : ["-ss", from.start.toFixed(3), "-to", from.end.toFixed(3)]),
    "-i", input, "-map", "0:a:0", "-vn", "-ac", "1", "-ar", "16000", "-c:a", "libopus", "-b:a", "24k", "-f", "ogg", output
  ], { timeout: encodeTimeout }).pipe(Effect.mapError(fromProgram("the audio could not be taken out of the file")))

/** The quiet stretches of the audio, by ffmpeg's `silencedetect`. */
const silences = (path: string, seconds: number) =>
  run("ffmpeg", [
    "-nostdin", "-v", "error", "-i", path, "-af", "silencedetect=noise=-35dB:d=0.3,ametadata=mode=print:file=-", "-f", "null", "-"
  ], { timeout: encodeTimeout }).pipe(
    Effect.map(({ stdout }) => silencesOf(stdout.toString("utf8"), seconds)),
    Effect.mapError(fromProgram("the audio's silences could not be found"))
  )

const fileBytes = (path: string, mimeType: string) =>
  Effect.promise(async () => {
    const data = await readFile(path)
    return { chunks: [new Uint8Array(data.buffer, data.byteOffset, data.byteLength)], size: data.byteLength, mimeType } satisfies Bytes
  })

const shifted = (segments: ReadonlyArray<TranscriptSegment>, by: number): ReadonlyArray<TranscriptSegment> =>
  segments.map((s) => ({ ...s, start: s.start + by, end: s.end + by }))

/** What became of one part: its reading, or the final reason it was not transcribed. */
type PartOutcome = { readonly start: number; readonly end: number; readonly heard: Either.Either<Reading, MediaError> }

/** The parts' readings joined in order, with each permanent failure named where its part was. */
const joinedParts = (outcomes: ReadonlyArray<PartOutcome>, model: string, what: string): Reading => {
  const texts: Array<string> = []
  const segments: Array<TranscriptSegment> = []
  let language: string | null = null
  for (const part of outcomes) {
    if (Either.isLeft(part.heard)) {
      texts.push(`[${what}, ${clock(part.start)}–${clock(part.end)} not transcribed: ${part.heard.left.reason}]`)
      continue
    }
    const reading = part.heard.right
    if (reading.text.trim() !== "") texts.push(reading.text.trim())
    segments.push(...shifted(reading.segments, part.start))
    language ??= reading.language
  }
  return { text: texts.join(" "), model, language, segments }
}

/**
 * Transcribe the recording. `direct`: a voice note or audio file, which goes as it is when it is
 * within the upload limit.
 */
export const hear = (hearing: Hearing, recording: Bytes, upload: Upload, direct: boolean, maxUpload: number): Effect.Effect<Reading, MediaError> =>
  direct && recording.size <= maxUpload
    ? hearing.transcriber.transcribe(recording, upload, hearing.names)
    : Effect.scoped(Effect.gen(function*() {
      const dir = yield* scratch
      const input = yield* dir.write("input", recording)
      const found = yield* probe(input)
      if (!found.hasAudio) {
        return { text: "", model: "ffprobe", language: null, segments: [], blank: "no sound" } satisfies Reading
      }
      const audio = dir.path("audio.ogg")
      yield* extract(input, audio)
      const size = (yield* Effect.promise(() => stat(audio))).size
      if (size <= maxUpload) {
        return yield* hearing.transcriber.transcribe(yield* fileBytes(audio, "audio/ogg"), { fileName: "audio.ogg", mimeType: "audio/ogg" }, hearing.names)
      }
      const seconds = (yield* probe(audio)).seconds || found.seconds
      // A part may run a fifth over its share (its cut moved back into a silence), and Opus's bitrate
      // wanders a little around its target: shares of three quarters of the limit keep parts under it.
      const parts = audioParts(seconds, Math.ceil(size / (maxUpload * 0.75)), yield* silences(audio, seconds))
      const outcomes = yield* Effect.forEach(parts, (part, i) =>
        Effect.gen(function*() {
          const path = dir.path(`part-${i}.ogg`)
          yield* extract(audio, path, part)
          const bytes = yield* fileBytes(path, "audio/ogg")
          const upload = { fileName: `part-${i + 1}.ogg`, mimeType: "audio/ogg" }
          // A part still over the limit is cut again, so that no part is left unheard.
          const heard = yield* Effect.either(
            bytes.size > maxUpload ? hear(hearing, bytes, upload, true, maxUpload) : hearing.transcriber.transcribe(bytes, upload, hearing.names)
          )
          // A part that may pass later fails the whole reading, so that all of it is tried again.
          if (Either.isLeft(heard) && !heard.left.permanent) return yield* heard.left
          return { start: part.start, end: part.end, heard } satisfies PartOutcome
        }))
      return joinedParts(outcomes, hearing.model, hearing.what)
    })).pipe(Effect.withSpan("Speech.hear", { attributes: { size: recording.size, direct } }))

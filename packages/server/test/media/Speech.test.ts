/**
 * The speech in videos and long recordings, with the real ffmpeg and espeak-ng and the real
 * `openai` SDK against the fake transcription server: the sound track taken out, a recording
 * over the upload limit cut at its silences and joined in order with each part's time kept.
 */
import { describe, expect, it } from "@effect/vitest"
import { FakeTranscriber, transcript } from "@verbatim/testkit/FakeTranscriber"
import { silentMp4, spokenMp4, spokenOgg, toneMp4 } from "@verbatim/testkit/RealMedia"
import { Duration, Effect, Either, Option, Redacted } from "effect"
import { MediaError } from "../../src/Media/MediaError.js"
import * as Speech from "../../src/Media/Speech.js"
import * as Transcriber from "../../src/Media/Transcriber.js"

const bytes = (data: Uint8Array, mimeType: string) => ({ chunks: [data], size: data.length, mimeType })

const hearing = (baseUrl: string): Speech.Hearing => ({
  transcriber: Transcriber.make({
    baseUrl,
    apiKey: Option.some(Redacted.make("sk-transcribe")),
    model: "whisper-1",
    language: Option.none(),
    timeout: Duration.seconds(10),
    maxUpload: Transcriber.defaultMaxUpload
  }),
  model: "whisper-1",
  names: ["Ana"],
  what: "video"
})

const video = { fileName: "video.mp4", mimeType: "video/mp4" }

/** Eight sentences, about twenty seconds, with espeak's pauses between them. */
const longTalk = Array.from({ length: 8 }, (_, i) => `This is sentence number ${i + 1} about Ana and the flat in Porto.`).join(" ")

describe("hearing videos and long recordings", () => {
  it.scoped("a video's sound track is taken out as mono Opus and transcribed", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTranscriber
      const mp4 = yield* spokenMp4("Ana moved to Porto in May.")
      yield* fake.answerNext(transcript("Ana moved to Porto in May."))
      const reading = yield* Speech.hear(hearing(fake.baseUrl), bytes(mp4, "video/mp4"), video, false, Transcriber.defaultMaxUpload)
      expect({ text: reading.text, model: reading.model }).toEqual({ text: "Ana moved to Porto in May.", model: "whisper-1" })
      const uploads = yield* fake.uploads
      expect(uploads.map((u) => [u.fileName, u.container, u.prompt])).toEqual([["audio.ogg", "ogg", "Ana"]])
      expect(uploads[0]!.seconds).toBeGreaterThan(1)
    }).pipe(Effect.provide(FakeTranscriber.layer)), 60_000)

  it.scoped("a video without a sound track reads as having no sound, and nothing is uploaded", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTranscriber
      const mp4 = yield* silentMp4(2)
      expect(yield* Speech.hear(hearing(fake.baseUrl), bytes(mp4, "video/mp4"), video, false, Transcriber.defaultMaxUpload)).toEqual({
        text: "",
        model: "ffprobe",
        language: null,
        segments: [],
        blank: "no sound"
      })
      expect((yield* fake.uploads).length).toBe(0)
    }).pipe(Effect.provide(FakeTranscriber.layer)), 60_000)

  it.scoped("a recording over the upload limit is cut at silences into parts under it, transcribed in order, times counted from the start", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTranscriber
      const ogg = yield* spokenOgg(longTalk)
      const limit = Math.ceil(ogg.length / 4)
      yield* fake.answerNext(...Array.from({ length: 16 }, (_, i) => transcript(`part ${i + 1}`)))
      const reading = yield* Speech.hear(hearing(fake.baseUrl), bytes(ogg, "audio/ogg"), { fileName: "talk.ogg", mimeType: "audio/ogg" }, true, limit)
      const uploads = yield* fake.uploads
      expect(uploads.length).toBeGreaterThanOrEqual(3)
      expect(uploads.every((u) => u.bytes.length <= limit)).toBe(true)
      expect(uploads.map((u) => u.fileName)).toEqual(uploads.map((_, i) => `part-${i + 1}.ogg`))
      expect(reading.text).toBe(uploads.map((_, i) => `part ${i + 1}`).join(" "))
      // One segment a part: each starts where its part does, and the parts follow one another to the end.
      const segments = reading.segments
      expect(segments.length).toBe(uploads.length)
      expect(segments[0]!.start).toBe(0)
      segments.slice(1).forEach((segment, i) => expect(Math.abs(segment.start - segments[i]!.end)).toBeLessThan(0.1))
      const total = uploads.reduce((sum, u) => sum + (u.seconds ?? 0), 0)
      expect(Math.abs(segments.at(-1)!.end - total)).toBeLessThan(0.1)
    }).pipe(Effect.provide(FakeTranscriber.layer)), 120_000)

  it.scoped("a part the transcriber can never take is named where it was and the rest kept; one that may pass fails the whole, to be tried again", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTranscriber
      const ogg = yield* spokenOgg(longTalk)
      const limit = Math.ceil(ogg.length / 1.5)
      const audio = { fileName: "talk.ogg", mimeType: "audio/ogg" }
      yield* fake.answerNext(transcript("first half"), { _tag: "Status", status: 400, message: "Audio file might be corrupted" })
      const reading = yield* Speech.hear(hearing(fake.baseUrl), bytes(ogg, "audio/ogg"), audio, true, limit)
      const second = reading.segments.length === 1 ? reading.segments[0]!.end : 0
      expect(reading.text).toMatch(
        /^first half \[video, 0:\d\d–0:\d\d not transcribed: the transcription server answered HTTP 400: Audio file might be corrupted\]$/
      )
      expect(reading.text.startsWith(`first half [video, 0:${String(Math.round(second)).padStart(2, "0")}–`)).toBe(true)
      yield* fake.answerNext(transcript("first half"), { _tag: "Status", status: 503, message: "busy" })
      expect(yield* Effect.either(Speech.hear(hearing(fake.baseUrl), bytes(ogg, "audio/ogg"), audio, true, limit))).toEqual(
        Either.left(new MediaError({ stage: "transcribe", permanent: false, reason: "the transcription server answered HTTP 503: busy" }))
      )
    }).pipe(Effect.provide(FakeTranscriber.layer)), 120_000)

  it.scoped("a two-hour video is heard whole: its sound taken out, cut under the upload limit, every part transcribed in order", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTranscriber
      const mp4 = yield* toneMp4(7200)
      yield* fake.answerNext(...Array.from({ length: 6 }, (_, i) => transcript(`hour part ${i + 1}`)))
      const reading = yield* Speech.hear(hearing(fake.baseUrl), bytes(mp4, "video/mp4"), video, false, Transcriber.defaultMaxUpload)
      const uploads = yield* fake.uploads
      expect(uploads.length).toBeGreaterThanOrEqual(2)
      expect(uploads.every((u) => u.bytes.length <= Transcriber.defaultMaxUpload)).toBe(true)
      expect(reading.text).toBe(uploads.map((_, i) => `hour part ${i + 1}`).join(" "))
      expect(Math.abs(reading.segments.at(-1)!.end - 7200)).toBeLessThan(1)
    }).pipe(Effect.provide(FakeTranscriber.layer)), 300_000)

  it.scoped("bytes that are no recording at all end in one final reason", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTranscriber
      const result = yield* Effect.either(
        Speech.hear(hearing(fake.baseUrl), bytes(new TextEncoder().encode("not a video, just text"), "video/mp4"), video, false, Transcriber.defaultMaxUpload)
      )
      expect(Either.isLeft(result) && [result.left.permanent, result.left.reason.startsWith("the file could not be read as audio or video (ffprobe failed (exit 1)")])
        .toEqual([true, true])
      expect((yield* fake.uploads).length).toBe(0)
    }).pipe(Effect.provide(FakeTranscriber.layer)), 60_000)
})

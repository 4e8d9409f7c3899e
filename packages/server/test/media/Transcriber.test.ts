/** Speech to text through the real `openai` SDK against the fake OpenAI-compatible server, with real audio from espeak-ng. */
import { describe, expect, it } from "@effect/vitest"
import { FakeTranscriber, transcript } from "@verbatim/testkit/FakeTranscriber"
import { spokenOgg, spokenWav } from "@verbatim/testkit/RealMedia"
import { Duration, Effect, Either, Option, Redacted } from "effect"
import { MediaError } from "../../src/Media/MediaError.js"
import * as Transcriber from "../../src/Media/Transcriber.js"

const sentence = "Ana moved to Porto in May."

const transcriberAt = (baseUrl: string, options: Partial<Transcriber.TranscriberOptions> = {}) =>
  Transcriber.make({
    baseUrl,
    apiKey: Option.some(Redacted.make("sk-transcribe")),
    model: "whisper-1",
    language: Option.none(),
    maxUpload: Transcriber.defaultMaxUpload,
    timeout: Duration.seconds(5),
    ...options
  })

const bytes = (data: Uint8Array, mimeType: string) => ({ chunks: [data.subarray(0, 1000), data.subarray(1000)], size: data.length, mimeType })

const failed = (permanent: boolean, reason: string) => Either.left(new MediaError({ stage: "transcribe", permanent, reason }))

describe("transcription over the OpenAI-compatible API", () => {
  it.scoped("a spoken OGG/Opus voice note is uploaded whole as multipart, with the model, verbose_json and the contacts as the prompt", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTranscriber
      const ogg = yield* spokenOgg(sentence)
      yield* fake.answerNext({ ...transcript("Ana moved to Porto in May."), language: "english" })
      const reading = yield* transcriberAt(fake.baseUrl).transcribe(bytes(ogg, "audio/ogg"), { fileName: "voice.ogg", mimeType: "audio/ogg" }, ["Ana Souza", "Tomás"])
      const [upload] = yield* fake.uploads
      // The fake times its one segment over the whole upload, as long as the OGG's last page says.
      const seconds = Math.round((upload?.seconds ?? 0) * 100) / 100
      expect(seconds).toBeGreaterThan(1)
      expect(reading).toEqual({
        text: "Ana moved to Porto in May.",
        model: "whisper-1",
        language: "english",
        segments: [{ start: 0, end: seconds, text: "Ana moved to Porto in May.", noSpeechProb: 0.01, silent: false }]
      })
      expect(upload === undefined ? null : {
        authorization: upload.authorization,
        model: upload.model,
        prompt: upload.prompt,
        language: upload.language,
        responseFormat: upload.responseFormat,
        fileName: upload.fileName,
        fileType: upload.fileType,
        container: upload.container,
        same: Buffer.from(upload.bytes).equals(Buffer.from(ogg))
      }).toEqual({
        authorization: "Bearer sk-transcribe",
        model: "whisper-1",
        prompt: "Ana Souza, Tomás",
        language: null,
        responseFormat: "verbose_json",
        fileName: "voice.ogg",
        fileType: "audio/ogg",
        container: "ogg",
        same: true
      })
    }).pipe(Effect.provide(FakeTranscriber.layer)))

  it.scoped("a WAV with a set language: the language is sent; silence Whisper made words of is flagged and left out", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTranscriber
      const wav = yield* spokenWav(sentence)
      yield* fake.answerNext(transcript("Ana moved to Porto in May.", { text: " Thanks for watching!", noSpeechProb: 0.94, avgLogprob: -1.7 }))
      const reading = yield* transcriberAt(fake.baseUrl, { language: Option.some("en") })
        .transcribe(bytes(wav, "audio/wav"), { fileName: "audio.wav", mimeType: "audio/wav" }, [])
      const [upload] = yield* fake.uploads
      expect({ language: upload?.language, prompt: upload?.prompt, container: upload?.container }).toEqual({ language: "en", prompt: null, container: "wav" })
      // espeak-ng speaks the sentence in about two seconds.
      expect((upload?.seconds ?? 0) > 1 && (upload?.seconds ?? 0) < 4).toBe(true)
      expect({ text: reading.text, silent: reading.segments.map((s) => [s.text, s.silent]) }).toEqual({
        text: "Ana moved to Porto in May.",
        silent: [["Ana moved to Porto in May.", false], ["Thanks for watching!", true]]
      })
    }).pipe(Effect.provide(FakeTranscriber.layer)))

  it.scoped("faults: a 500 and garbage are worth another try, a refused format is not, a server that hangs times out", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTranscriber
      const ogg = yield* spokenOgg(sentence)
      const upload = { fileName: "voice.ogg", mimeType: "audio/ogg" }
      const transcriber = transcriberAt(fake.baseUrl, { timeout: Duration.millis(300) })
      const attempt = (data: Uint8Array = ogg) => Effect.either(transcriber.transcribe(bytes(data, "audio/ogg"), upload, []))
      yield* fake.answerNext(
        { _tag: "Status", status: 500, message: "model overloaded" },
        { _tag: "Garbage", body: "<html>502 Bad Gateway</html>" },
        { _tag: "Garbage", body: JSON.stringify({ transcript: "wrong shape" }) },
        { _tag: "Hang" }
      )
      expect(yield* attempt()).toEqual(failed(false, "the transcription server answered HTTP 500: model overloaded"))
      expect(yield* attempt()).toEqual(failed(false, "the transcription server's answer could not be read"))
      expect(yield* attempt()).toEqual(failed(false, "the transcription server's answer was not a transcript"))
      expect(yield* attempt()).toEqual(failed(false, "the transcription server did not answer within 300ms"))
      expect(yield* attempt(new TextEncoder().encode("not audio at all"))).toEqual(failed(
        true,
        "the transcription server answered HTTP 400: Invalid file format. Supported formats: ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']"
      ))
    }).pipe(Effect.provide(FakeTranscriber.layer)))

  it.effect("a server that is not there is worth another try; no server configured is final and says which setting", () =>
    Effect.gen(function*() {
      const upload = { fileName: "voice.ogg", mimeType: "audio/ogg" }
      const audio = bytes(new Uint8Array(2000), "audio/ogg")
      expect(yield* Effect.either(transcriberAt("http://127.0.0.1:9/v1").transcribe(audio, upload, []))).toEqual(
        failed(false, "could not reach the transcription server")
      )
      expect(yield* Effect.either(Transcriber.none.transcribe(audio, upload, []))).toEqual(
        failed(true, "no transcription server is configured (VERBATIM_TRANSCRIBE_URL)")
      )
    }))

  it("upload names keep a real extension, else take one from the type", () => {
    expect([
      Transcriber.uploadName("memo.m4a", "audio/mp4", "audio"),
      Transcriber.uploadName(null, "audio/ogg; codecs=opus", "voice"),
      Transcriber.uploadName("Recording", "audio/mpeg", "audio"),
      Transcriber.uploadName(null, null, "voice")
    ]).toEqual(["memo.m4a", "voice.ogg", "audio.mp3", "voice.ogg"])
  })
})

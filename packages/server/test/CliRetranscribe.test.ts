/** `verbatim retranscribe` as a process, against the fake Telegram file API and the fake transcription server on loopback. */
import { describe, expect, it } from "@effect/vitest"
import { attachment } from "@verbatim/domain/Attachment"
import * as Store from "@verbatim/projections/Store"
import { FakeTelegram } from "@verbatim/testkit/FakeTelegram"
import { FakeTranscriber, transcript } from "@verbatim/testkit/FakeTranscriber"
import * as G from "@verbatim/testkit/Given"
import { spokenOgg } from "@verbatim/testkit/RealMedia"
import { Effect, Layer } from "effect"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { runCli, tempDir } from "./CliHarness.js"

/** A data directory whose log holds one closed session: a voice note (never fetched) and a text. */
const store = Effect.gen(function*() {
  const data = join(yield* tempDir("verbatim-retranscribe-"), "data")
  mkdirSync(data, { recursive: true })
  yield* G.given([G.sessionStream("s"), [
    G.sessionOpened("s"),
    G.messageReceived("s", 1, "", { kind: "media-without-text", attachments: [attachment("voice", "voice-1", { duration: 3, mimeType: "audio/ogg" })] }),
    G.messageReceived("s", 2, "Her new number is 912 345 678."),
    G.sessionClosed("s", 2)
  ]]).pipe(Effect.provide(Store.layerSqlite({ filename: join(data, "verbatim.db") })))
  const telegram = yield* FakeTelegram
  const transcriber = yield* FakeTranscriber
  return {
    env: {
      VERBATIM_DATA_DIR: data,
      TELEGRAM_API_BASE: telegram.baseUrl,
      TELEGRAM_BOT_TOKEN: telegram.token,
      VERBATIM_TRANSCRIBE_URL: transcriber.baseUrl,
      VERBATIM_TRANSCRIBE_MODEL: "whisper-large-v3"
    },
    telegram,
    transcriber
  }
})

const fakes = Layer.mergeAll(FakeTelegram.layer, FakeTranscriber.layer)

describe("verbatim retranscribe", () => {
  it.scoped("fetches a voice note never stored, transcribes it, and again under a new answer records the new text", () =>
    Effect.gen(function*() {
      const { env, telegram, transcriber } = yield* store
      yield* telegram.files.add("voice-1", yield* spokenOgg("Ana moved to Porto."), { mimeType: "audio/ogg" })
      yield* transcriber.answerNext(transcript("Ana moved to Porto."), transcript("Ana moved to Porto in May."))
      expect(yield* runCli(["retranscribe", "s/1"], env)).toEqual({
        code: 0,
        stderr: "",
        stdout: "s/1 #0 voice: read by whisper-large-v3: \"Ana moved to Porto.\"\n"
      })
      expect(yield* runCli(["retranscribe", "--session", "s"], env)).toEqual({
        code: 0,
        stderr: "",
        stdout: "s/1 #0 voice: read by whisper-large-v3: \"Ana moved to Porto in May.\"\n"
      })
      expect(yield* telegram.files.downloads).toEqual(["voice-1"])
      const [upload] = yield* transcriber.uploads
      expect({ model: upload?.model, container: upload?.container }).toEqual({ model: "whisper-large-v3", container: "ogg" })
      const events = yield* runCli(["events"], env)
      expect(events.stdout.trim().split("\n").map((line) => (JSON.parse(line) as { event: { _tag: string; text?: string } }).event)
        .filter((e) => e._tag.startsWith("Media")).map((e) => [e._tag, e.text ?? null])).toEqual([
          ["MediaFetched", null],
          ["MediaTranscribed", "Ana moved to Porto."],
          ["MediaTranscribed", "Ana moved to Porto in May."]
        ])
    }).pipe(Effect.provide(fakes)))

  it.scoped("says why when a transcription fails, and refuses an id with no attachments or no id at all", () =>
    Effect.gen(function*() {
      const { env, telegram } = yield* store
      yield* telegram.files.add("voice-1", yield* spokenOgg("Ana"), { mimeType: "audio/ogg" })
      // Nothing scripted: the fake transcription server answers 500.
      const failing = yield* runCli(["retranscribe", "s/1"], env)
      expect({ code: failing.code, stdout: failing.stdout }).toEqual({
        code: 0,
        stdout: "s/1 #0 voice: not read yet, tried again later: the transcription server answered HTTP 500: no transcript scripted\n"
      })
      // The failure is also logged, as a warning on stderr.
      expect(failing.stderr.replace(/timestamp=\S+ /, "").replace(/fiber=#\d+ /, "")).toBe(
        "level=WARN message=media reason=\"the transcription server answered HTTP 500: no transcript scripted\" stage=transcribe " +
          "messageId=s/1 final=false attachment=0\n"
      )
      expect(yield* runCli(["retranscribe", "s/2"], env)).toEqual({
        code: 1,
        stdout: "",
        stderr: "verbatim: s/2: no attachments under that message or session id (`verbatim accounting SESSION` lists messages)\n"
      })
      expect(yield* runCli(["retranscribe"], env)).toEqual({ code: 1, stdout: "", stderr: "verbatim: give a message id or --session ID (one of them)\n" })
    }).pipe(Effect.provide(fakes)))
})

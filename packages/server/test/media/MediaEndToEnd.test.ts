/**
 * Voice notes and photos end to end through the real HTTP server: webhook → fetch from the fake
 * provider's file API → transcription or vision over the real SDKs → plan → note → reply. Every
 * fault leaves the message with exactly one disposition, tells the user, and loses nothing.
 */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan, type Plan } from "@verbatim/domain/Plan"
import { FakeReply } from "@verbatim/testkit/FakeAnthropic"
import { FakeTelegram } from "@verbatim/testkit/FakeTelegram"
import { FakeTranscriber, transcript } from "@verbatim/testkit/FakeTranscriber"
import { FakeWhatsApp } from "@verbatim/testkit/FakeWhatsApp"
import { spokenOgg } from "@verbatim/testkit/RealMedia"
import { ScriptedLanguageModel, planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { MessageId, SessionId } from "@verbatim/domain/Ids"
import { Notebook } from "@verbatim/projections/Notebook"
import { Effect, Option, TestClock } from "effect"
import { readdirSync } from "node:fs"
import { backoff } from "../../src/Backoff.js"
import { MediaWorker } from "../../src/Media/Worker.js"
import { auditOf, client } from "../apiClient.js"
import {
  aliceUpdate,
  closeIdle,
  drain,
  eventLog,
  FakeVision,
  fixture,
  imageFile,
  imageShowing,
  layer,
  noteBody,
  readMedia,
  telegram,
  telegramCalls,
  voiceSaying,
  whatsApp,
  whatsAppCalls
} from "../harness.js"

const alice = SessionId.make("telegram:100000001:100000001:1")
const mine = (...seqs: ReadonlyArray<number>): Plan => ({ ...emptyPlan, unattached: [{ sourceItemSeqs: seqs, directives: [] }] })
const about = (name: string, ...seqs: ReadonlyArray<number>): Plan => ({
  ...emptyPlan,
  people: [{ contactId: null, name, notes: [{ sourceItemSeqs: seqs, directives: [] }] }]
})

const update = aliceUpdate

/** A Telegram voice note of 3 seconds in Alice's private chat. */
const voice = (messageId: number, fileId: string, extra: Record<string, unknown> = {}) =>
  update(messageId, { voice: { file_id: fileId, file_unique_id: `u-${fileId}`, duration: 3, mime_type: "audio/ogg", file_size: 9000 }, ...extra })

/** A Telegram photo (two sizes; the larger is fetched) in Alice's private chat. */
const photo = (messageId: number, fileId: string, extra: Record<string, unknown> = {}) =>
  update(messageId, {
    photo: [
      { file_id: `${fileId}-small`, file_unique_id: `u-${fileId}-s`, width: 90, height: 30, file_size: 900 },
      { file_id: fileId, file_unique_id: `u-${fileId}`, width: 900, height: 300, file_size: 20000 }
    ],
    ...extra
  })

const post = (...bodies: ReadonlyArray<string>) =>
  Effect.forEach(bodies, (body) => Effect.map(telegram(body), (reply) => expect(reply).toEqual({ status: 200, body: "" })), { discard: true })

const sent = (text: string) => ({ method: "sendMessage", body: { chat_id: "100000001", text } })
const sentTexts = Effect.map(telegramCalls, (calls) => calls.filter((c) => c.method === "sendMessage"))

/** The one current disposition of each message of Alice's session. */
const dispositions = Effect.flatMap(Notebook, (read) => read.sessionAccounting(alice)).pipe(
  Effect.map((accounting) => Option.getOrThrow(accounting).messages.map((m) => [m.seq, m.disposition._tag]))
)

describe("voice notes and photos end to end", () => {
  it.effect("a caption and its voice note's transcript are both kept, in order; the audit says which characters the transcriber wrote", () =>
    Effect.gen(function*() {
      yield* voiceSaying("telegram", "voice-1", "Ana moved to Porto in May.")
      yield* post(voice(1, "voice-1", { caption: "About Ana:" }))
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      expect(yield* noteBody("note_1")).toBe("About Ana:\n🎤 Ana moved to Porto in May.")
      const [source] = (yield* auditOf("note_1")).sources
      expect(source?.parts.map((p) => [source.text.slice(p.start, p.end), p.origin._tag, p.origin._tag === "Derived" ? p.origin.model : null])).toEqual([
        ["About Ana:", "Sender", null],
        ["\n", "Rendering", null],
        ["🎤 ", "Rendering", null],
        ["Ana moved to Porto in May.", "Derived", "whisper-1"]
      ])
      // The transcriber was asked with the real upload, the planner saw the transcript as the message's text.
      const [upload] = yield* Effect.flatMap(FakeTranscriber, (fake) => fake.uploads)
      expect({ container: upload?.container, fileName: upload?.fileName, model: upload?.model }).toEqual({ container: "ogg", fileName: "voice.ogg", model: "whisper-1" })
      const [request] = yield* ScriptedLanguageModel.requests
      const lines = (request?.userContent ?? "").split("\n").filter((line) => line.startsWith("{\"seq\""))
      expect(lines.map((line) => JSON.parse(line) as { seq: number; text: string })).toEqual([
        { seq: 1, kind: "caption", forwardedFrom: null, replyToSeq: null, text: "About Ana:\n🎤 Ana moved to Porto in May.", at: "2026-01-01T00:00" }
      ])
      expect(yield* drain).toEqual({ sent: 1, failed: 0, held: 0 })
      expect(yield* sentTexts).toEqual([sent("Added 1 note: Ana.")])
    }).pipe(Effect.provide(layer([planStep(about("Ana", 1))]))))

  it.effect("an album of three photos with one caption is one message group: the planner is told, and one note holds all three", () =>
    Effect.gen(function*() {
      yield* imageShowing("telegram", "p-1", "Whiteboard: launch 12 June")
      yield* imageShowing("telegram", "p-2", "Budget 40k")
      yield* imageShowing("telegram", "p-3", "Owner: Tomás")
      yield* post(
        photo(1, "p-1", { media_group_id: "album-7", caption: "Planning meeting" }),
        photo(2, "p-2", { media_group_id: "album-7" }),
        photo(3, "p-3", { media_group_id: "album-7" })
      )
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      const [request] = yield* ScriptedLanguageModel.requests
      const lines = (request?.userContent ?? "").split("\n").filter((line) => line.startsWith("{\"seq\""))
      expect(lines.map((line) => JSON.parse(line) as { seq: number; text: string; album?: number }).map((m) => [m.seq, m.text, m.album])).toEqual([
        [1, "Planning meeting\n🖼 Whiteboard: launch 12 June", 1],
        [2, "🖼 Budget 40k", 1],
        [3, "🖼 Owner: Tomás", 1]
      ])
      expect(yield* noteBody("note_1")).toBe("Planning meeting\n🖼 Whiteboard: launch 12 June\n\n🖼 Budget 40k\n\n🖼 Owner: Tomás")
      expect(yield* dispositions).toEqual([[1, "InNote"], [2, "InNote"], [3, "InNote"]])
    }).pipe(Effect.provide(layer([planStep(mine(1, 2, 3))]))))

  it.effect("a voice note too large to fetch and a photo the vision model refuses: each filed as what it is, and the reply says why", () =>
    Effect.gen(function*() {
      yield* Effect.flatMap(FakeTelegram, (fake) => fake.files.add("big-voice", new Uint8Array(10), { declaredSize: 30 * 1024 * 1024 }))
      yield* imageFile("telegram", "refused", "Ana's card")
      yield* Effect.flatMap(FakeVision, (fake) => fake.script(FakeReply.refusal()))
      yield* post(
        update(1, { voice: { file_id: "big-voice", file_unique_id: "u-big", duration: 1500, mime_type: "audio/ogg", file_size: 30 * 1024 * 1024 } }),
        photo(2, "refused")
      )
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      expect(yield* noteBody("note_1")).toBe(
        "[voice note, 25:00, not transcribed: the file is larger than 20 MB, the most that can be fetched]\n\n" +
          "[photo, not read: the vision model declined to read the image]"
      )
      expect(yield* dispositions).toEqual([[1, "InNote"], [2, "InNote"]])
      yield* drain
      expect(yield* sentTexts).toEqual([
        sent(
          "Added 1 note: your own notes.\nI couldn't read this voice note or this photo: they are filed as what they are, and the note says why."
        )
      ])
      expect(yield* Effect.flatMap(FakeTelegram, (fake) => fake.files.downloads)).toEqual(["refused"])
    }).pipe(Effect.provide(layer([planStep(mine(1, 2))]))))

  it.effect("a transcriber that keeps failing is retried with backoff from the stored bytes while planning waits; then the note says why", () =>
    Effect.gen(function*() {
      // The fake answers 500 to every upload nothing was scripted for.
      yield* Effect.flatMap(Effect.zip(FakeTelegram, spokenOgg("Ana moved to Porto.")), ([fake, ogg]) => fake.files.add("v", ogg))
      yield* post(voice(1, "v"))
      expect(yield* dispositions).toEqual([[1, "AwaitingTranscription"]])
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 0 })
      for (let attempt = 1; attempt < 5; attempt++) {
        expect(yield* readMedia).toEqual({ fetched: 0, read: 0, failed: 0, waiting: 1 })
        yield* TestClock.adjust(backoff(attempt))
        expect(yield* readMedia).toEqual({ fetched: 0, read: 0, failed: 1, waiting: 0 })
      }
      expect(yield* Effect.flatMap(ScriptedLanguageModel.requests, (r) => Effect.succeed(r.length))).toBe(0)
      expect(yield* closeIdle).toEqual({ closed: 0, planned: 1 })
      expect(yield* noteBody("note_1")).toBe(
        "[voice note, 0:03, not transcribed: the transcription server answered HTTP 500: no transcript scripted (gave up after 5 attempts)]"
      )
      // Downloaded once: every later attempt (as after a crash between download and transcription) read the stored bytes.
      expect(yield* Effect.flatMap(FakeTelegram, (fake) => fake.files.downloads)).toEqual(["v"])
      expect((yield* Effect.flatMap(FakeTranscriber, (fake) => fake.uploads)).map((u) => [u.fileName, u.container])).toEqual(
        Array.from({ length: 5 }, () => ["voice.ogg", "ogg"])
      )
    }).pipe(Effect.provide(layer([planStep(mine(1))], { mediaWait: 600 }))))

  it.effect("no transcription server configured: the voice note is still fetched and stored, and filed as untranscribed", () =>
    Effect.gen(function*() {
      yield* Effect.flatMap(Effect.zip(FakeTelegram, spokenOgg("Ana")), ([fake, ogg]) => fake.files.add("v", ogg))
      yield* post(voice(1, "v"))
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      expect(yield* noteBody("note_1")).toBe("[voice note, 0:03, not transcribed: no transcription server is configured (VERBATIM_TRANSCRIBE_URL)]")
      expect(yield* Effect.flatMap(FakeTelegram, (fake) => fake.files.downloads)).toEqual(["v"])
    }).pipe(Effect.provide(layer([planStep(mine(1))], { readers: "none" }))))

  it.effect("reading again records a new transcript and the note re-derives from it; the same text again records nothing", () =>
    Effect.gen(function*() {
      yield* voiceSaying("telegram", "v", "Ana moved to Porto.")
      yield* post(voice(1, "v"))
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      expect(yield* noteBody("note_1")).toBe("🎤 Ana moved to Porto.")
      const transcriber = yield* FakeTranscriber
      yield* transcriber.answerNext(transcript("Ana moved to Porto in May."), transcript("Ana moved to Porto in May."))
      const worker = yield* MediaWorker
      expect(yield* worker.reread(MessageId.make("telegram:100000001:1"))).toEqual({ fetched: 0, read: 1, failed: 0, waiting: 0 })
      expect(yield* noteBody("note_1")).toBe("🎤 Ana moved to Porto in May.")
      expect(yield* worker.reread(alice)).toEqual({ fetched: 0, read: 1, failed: 0, waiting: 0 })
      const events = yield* client((c) => c.api.events({ urlParams: { limit: 100 } }))
      expect(events.events.flatMap((e) => e.event._tag === "MediaTranscribed" ? [e.event.text] : [])).toEqual([
        "Ana moved to Porto.",
        "Ana moved to Porto in May."
      ])
    }).pipe(Effect.provide(layer([planStep(mine(1))]))))

  it.effect("WhatsApp: a URL that expired is asked for again; a media id WhatsApp no longer has is filed as what it is", () =>
    Effect.gen(function*() {
      const body = (id: string, mediaId: string) => {
        const parsed = JSON.parse(fixture("whatsapp/03_audio_voice_note_pywa.json"))
        const message = parsed.entry[0].changes[0].value.messages[0]
        message.id = id
        message.audio.id = mediaId
        return JSON.stringify(parsed)
      }
      yield* voiceSaying("whatsapp", "media-ok", "Call Tomás on Friday.")
      yield* Effect.flatMap(FakeWhatsApp, (fake) => fake.expireNextUrl("media-ok"))
      expect(yield* whatsApp(body("wamid.A", "media-ok"))).toEqual({ status: 200, body: "" })
      expect(yield* whatsApp(body("wamid.B", "media-gone"))).toEqual({ status: 200, body: "" })
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      expect(yield* noteBody("note_1")).toBe(
        "🎤 Call Tomás on Friday.\n\n" +
          "[voice note, not transcribed: WhatsApp answered HTTP 400: (#100) Unsupported get request. Object with ID 'media-gone' does not exist]"
      )
      expect(yield* Effect.flatMap(FakeWhatsApp, (fake) => fake.files.downloads)).toEqual(["media-ok"])
      yield* drain
      expect((yield* whatsAppCalls).map((c) => (c as { text: { body: string } }).text.body)).toEqual([
        "Added 1 note: your own notes.\nI couldn't read this voice note: it is filed as what it is, and the note says why."
      ])
    }).pipe(Effect.provide(layer([planStep(mine(1, 2))]))))

  it.live("a transcription that hangs holds back only its own session: another sender's photo is read meanwhile", () =>
    Effect.gen(function*() {
      yield* Effect.flatMap(Effect.zip(FakeTelegram, spokenOgg("Ana")), ([fake, ogg]) => fake.files.add("slow", ogg))
      yield* Effect.flatMap(FakeTranscriber, (fake) => fake.answerNext({ _tag: "Hang" }))
      yield* imageShowing("telegram", "quick", "Bob's flight lands at 9")
      yield* post(voice(1, "slow"))
      const bob = JSON.parse(photo(2, "quick")) as { message: { from: { id: number }; chat: { id: number } } }
      bob.message.from.id = 100000002
      bob.message.chat.id = 100000002
      yield* post(JSON.stringify(bob))
      expect(yield* readMedia).toEqual({ fetched: 0, read: 1, failed: 1, waiting: 0 })
      // Bob's photo was read while Alice's upload hung, not after its timeout (5 s in the harness).
      const outcomes = (yield* eventLog).filter((line) => / Media(Transcribed|Failed)$/.test(line))
      expect(outcomes).toEqual([
        "session-telegram:100000002:100000002:1#4 MediaTranscribed",
        "session-telegram:100000001:100000001:1#4 MediaFailed"
      ])
    }).pipe(Effect.provide(layer([]))))

  it.effect("the forwarded audio fixture is fetched, transcribed and filed as its transcript", () =>
    Effect.gen(function*() {
      yield* voiceSaying("whatsapp", "1234567890987654321", "The quarterly numbers are in the shared folder.")
      expect(yield* whatsApp(fixture("whatsapp/03b_audio_forwarded_file_pywa.json"))).toEqual({ status: 200, body: "" })
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      expect(yield* noteBody("note_1")).toBe("🎤 The quarterly numbers are in the shared folder.")
      const [upload] = yield* Effect.flatMap(FakeTranscriber, (fake) => fake.uploads)
      expect({ fileName: upload?.fileName, fileType: upload?.fileType }).toEqual({ fileName: "audio.ogg", fileType: "audio/ogg" })
    }).pipe(Effect.provide(layer([planStep(mine(1))]))))
})

describe("every webhook fixture", () => {
  const telegramFixtures = readdirSync(new URL("../../../domain/test/fixtures/webhooks/telegram/", import.meta.url)).sort()
  const whatsAppFixtures = readdirSync(new URL("../../../domain/test/fixtures/webhooks/whatsapp/", import.meta.url)).sort()

  it.effect("is taken (200, empty body) by the running server, each under its provider's authentication", () =>
    Effect.gen(function*() {
      const replies: Array<[string, number]> = []
      for (const name of telegramFixtures) replies.push([name, (yield* telegram(fixture(`telegram/${name}`))).status])
      for (const name of whatsAppFixtures) replies.push([name, (yield* whatsApp(fixture(`whatsapp/${name}`))).status])
      expect(replies).toEqual([...telegramFixtures, ...whatsAppFixtures].map((name) => [name, 200]))
      expect(telegramFixtures.length + whatsAppFixtures.length).toBe(24)
    }).pipe(Effect.provide(layer([], { noModel: true }))))
})

/**
 * Planning a session with attachments: it waits for their text (bounded by the media wait), the
 * model sees a transcript as the message's text, and nothing is ever filed as an empty note.
 */
import { describe, expect, it } from "@effect/vitest"
import { attachment } from "@verbatim/domain/Attachment"
import { messageIdOf, type SessionId } from "@verbatim/domain/Ids"
import type { NewMessage } from "@verbatim/domain/Inbound/Inbound"
import { Command, MediaOutcome } from "@verbatim/domain/Session/Commands"
import { SqlClient } from "@effect/sql/SqlClient"
import { FakeAnthropic } from "@verbatim/testkit"
import { DateTime, Effect, TestClock } from "effect"
import { PlanTrigger } from "../src/Planning/PlanTrigger.js"
import { execute } from "../src/Sessions.js"
import { closedSession, eventsAfterClose, PlanJobTest, text } from "./planJobHarness.js"

const { FakeReply } = FakeAnthropic

const voiceNote = (n: number): NewMessage => ({
  ...text(n, ""),
  kind: "media-without-text",
  attachments: [attachment("voice", `voice-${n}`, { duration: 42, mimeType: "audio/ogg" })]
})

const transcribed = (sessionId: SessionId, n: number, words: string) =>
  execute(sessionId, () =>
    Effect.map(DateTime.now, (now) =>
      Command.Media({
        messageId: messageIdOf("telegram", `100000001:${n}`),
        attachment: 0,
        outcome: MediaOutcome.Read({ source: "speech", text: words, model: "whisper-1", language: "en", segments: [] }),
        now
      })))

/** The messages the model was shown, one parsed JSON line each. */
const shownMessages = Effect.gen(function*() {
  const requests = yield* Effect.flatMap(FakeAnthropic.FakeAnthropic, (fake) => fake.requests)
  const body = requests[requests.length - 1]?.body as { messages: ReadonlyArray<{ content: ReadonlyArray<{ text?: string }> | string }> }
  const content = body.messages[0]!.content
  const userText = typeof content === "string" ? content : content.map((c) => c.text ?? "").join("")
  const block = userText.slice(userText.indexOf("<messages>\n") + "<messages>\n".length, userText.indexOf("</messages>"))
  return block.trim().split("\n").map((line) => JSON.parse(line) as unknown)
})

const ownNotes = { people: [], unattached: [{ sourceItemSeqs: [1, 2], directives: [] }], unclear: [], botMessages: [] }

const bodies = (sessionId: SessionId) =>
  Effect.flatMap(SqlClient, (sql) => sql<{ body: string }>`SELECT body FROM notes WHERE session_id = ${sessionId}`)
    .pipe(Effect.map((rows) => rows.map((r) => r.body)))

describe("planning a session with a voice note", () => {
  it.effect("waits for the transcript, then shows it to the model and files it labelled", () =>
    Effect.gen(function*() {
      const trigger = yield* PlanTrigger
      yield* Effect.flatMap(FakeAnthropic.FakeAnthropic, (fake) => fake.script(FakeReply.toolUse(ownNotes)))
      const sessionId = yield* closedSession(text(1, "Ana called."), voiceNote(2))
      expect(yield* trigger.catchUp).toBe(0)
      expect(yield* eventsAfterClose(sessionId)).toEqual([])
      yield* transcribed(sessionId, 2, "She starts at the clinic on Monday.")
      expect(yield* trigger.catchUp).toBe(1)
      expect(yield* shownMessages).toEqual([
        { seq: 1, kind: "text", forwardedFrom: null, replyToSeq: null, text: "Ana called." },
        { seq: 2, kind: "media-without-text", forwardedFrom: null, replyToSeq: null, text: "🎤 She starts at the clinic on Monday." }
      ])
      expect(yield* bodies(sessionId)).toEqual(["Ana called.\n\n🎤 She starts at the clinic on Monday."])
    }).pipe(Effect.provide(PlanJobTest)))

  it.effect("plans after the wait with the voice note as what it is, never as an empty note", () =>
    Effect.gen(function*() {
      const trigger = yield* PlanTrigger
      yield* Effect.flatMap(FakeAnthropic.FakeAnthropic, (fake) => fake.script(FakeReply.toolUse(ownNotes)))
      const sessionId = yield* closedSession(text(1, "Ana called."), voiceNote(2))
      yield* TestClock.adjust("119 seconds")
      expect(yield* trigger.catchUp).toBe(0)
      yield* TestClock.adjust("3 seconds")
      expect(yield* trigger.catchUp).toBe(1)
      expect(yield* shownMessages).toEqual([
        { seq: 1, kind: "text", forwardedFrom: null, replyToSeq: null, text: "Ana called." },
        { seq: 2, kind: "media-without-text", forwardedFrom: null, replyToSeq: null, text: "[voice note, 0:42, not transcribed yet]" }
      ])
      expect(yield* bodies(sessionId)).toEqual(["Ana called.\n\n[voice note, 0:42, not transcribed yet]"])
      const replies = (yield* eventsAfterClose(sessionId)).filter((e) => e._tag === "ReplyQueued").map((e) => e._tag === "ReplyQueued" ? e.text : "")
      expect(replies).toEqual(["Added 1 note: your own notes.\nI couldn't read this voice note: it is filed as what it is, and the note says why."])
    }).pipe(Effect.provide(PlanJobTest)))
})

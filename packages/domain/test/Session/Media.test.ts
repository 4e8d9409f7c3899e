/** Attachments on the session: bytes stored, text read or failures recorded, and the message's readable text after each. */
import { describe, expect, it } from "@effect/vitest"
import { attachment } from "../../src/Attachment.js"
import type { Event } from "../../src/Events.js"
import { makeInboundMessage } from "../../src/Message.js"
import { Command, MediaOutcome, rejected } from "../../src/Session/Commands.js"
import { awaitedMedia, fold } from "../../src/Session/State.js"
import { noteRecorded, planApplied, planProduced, replyQueued } from "./Decided.js"
import { at, chunk, closed, edit, message, messageId, opened, plan, recordPlans, sessionId, spec, unattached } from "./fixtures.js"

const voice = attachment("voice", "voice-file", { duration: 42, mimeType: "audio/ogg" })
const photo = attachment("photo", "photo-file", { width: 1280, height: 960 })

/** Message 1: a voice note and a photo with the caption "From Ana". */
const withMedia: Event = {
  _tag: "MessageReceived",
  message: makeInboundMessage({ ...message(1, "From Ana"), kind: "caption", attachments: [voice, photo] })
}
const session = [opened(), withMedia, closed(1)]

const media = (attachmentIndex: number, outcome: MediaOutcome, seconds = 700) =>
  Command.Media({ messageId: messageId(1), attachment: attachmentIndex, outcome, now: at(seconds) })
const read = (text: string, model = "whisper-1") =>
  MediaOutcome.Read({ source: "speech", text, model, language: "en", segments: [{ start: 0, end: 2.5, text, noSpeechProb: 0.01, silent: false }] })
const at0 = { messageId: messageId(1), sessionId, attachment: 0 }

const textOf = (events: ReadonlyArray<Event>) => fold(events).messages[0]?.text

describe("Media", () => {
  it("records a transcript as derived text, the caption staying the sender's", () => {
    spec.given(session).when(media(0, read("She starts on Monday."))).then([{
      _tag: "MediaTranscribed",
      ...at0,
      source: "speech",
      text: "She starts on Monday.",
      model: "whisper-1",
      language: "en",
      segments: [{ start: 0, end: 2.5, text: "She starts on Monday.", noSpeechProb: 0.01, silent: false }],
      transcribedAt: at(700)
    }])
  })

  it("counts failed attempts of a stage and records a permanent failure once", () => {
    const transient = MediaOutcome.Failed({ stage: "fetch", permanent: false, reason: "Telegram is unavailable (HTTP 502)" })
    const first: Event = { _tag: "MediaFailed", ...at0, stage: "fetch", permanent: false, reason: "Telegram is unavailable (HTTP 502)", attempt: 1, failedAt: at(700) }
    spec.given(session).when(media(0, transient)).then([first])
    spec.given([...session, first]).when(media(0, transient, 710)).then([{ ...first, attempt: 2, failedAt: at(710) }])
    const expired: Event = { _tag: "MediaFailed", ...at0, stage: "fetch", permanent: true, reason: "the file expired", attempt: 1, failedAt: at(700) }
    spec.given([...session, expired]).when(media(0, MediaOutcome.Failed({ stage: "fetch", permanent: true, reason: "the file expired" })))
      .thenRejects(rejected("already-recorded", "the failure is already recorded"))
  })

  it("stores the bytes once", () => {
    const fetched: Event = { _tag: "MediaFetched", ...at0, sha256: "ab12", size: 4096, mimeType: "audio/ogg", fetchedAt: at(700) }
    spec.given(session).when(media(0, MediaOutcome.Fetched({ sha256: "ab12", size: 4096, mimeType: "audio/ogg" }))).then([fetched])
    spec.given([...session, fetched]).when(media(0, MediaOutcome.Fetched({ sha256: "ab12", size: 4096, mimeType: "audio/ogg" })))
      .thenRejects(rejected("already-recorded", "the bytes are already stored"))
  })

  it("refuses an attachment the message does not have", () => {
    spec.given(session).when(media(2, read("x"))).thenRejects(rejected("not-in-session", "no such attachment in the session"))
  })

  it("records another model's transcript, and refuses the same text from the same model", () => {
    const first: Event = { _tag: "MediaTranscribed", ...at0, source: "speech", text: "Hi", model: "whisper-1", language: null, segments: [], transcribedAt: at(700) }
    spec.given([...session, first]).when(media(0, MediaOutcome.Read({ source: "speech", text: "Hi", model: "whisper-1", language: null, segments: [] })))
      .thenRejects(rejected("already-recorded", "the same text from the same model is already recorded"))
    spec.given([...session, first]).when(media(0, MediaOutcome.Read({ source: "speech", text: "Hi there", model: "large-v3", language: null, segments: [] })))
      .then([{ ...first, text: "Hi there", model: "large-v3" }])
  })

  it("reads the message as caption, transcript and what is not read yet, and waits for both attachments", () => {
    const transcribed: Event = { _tag: "MediaTranscribed", ...at0, source: "speech", text: "She starts on Monday.", model: "whisper-1", language: "en", segments: [], transcribedAt: at(700) }
    const unreadable: Event = { _tag: "MediaFailed", ...at0, attachment: 1, stage: "transcribe", permanent: true, reason: "image reading is off (VERBATIM_VISION=none)", attempt: 1, failedAt: at(701) }
    expect(textOf(session)).toBe("From Ana\n[voice note, 0:42, not transcribed yet]\n[photo, not read yet]")
    expect(awaitedMedia(fold(session))).toBe(2)
    expect(textOf([...session, transcribed, unreadable])).toBe(
      "From Ana\n🎤 She starts on Monday.\n[photo, not read: image reading is off (VERBATIM_VISION=none)]"
    )
    expect(awaitedMedia(fold([...session, transcribed, unreadable]))).toBe(0)
  })

  it("keeps the transcript when the caption is edited, and compares an edit with the sender's words", () => {
    const transcribed: Event = { _tag: "MediaTranscribed", ...at0, source: "speech", text: "Monday.", model: "whisper-1", language: null, segments: [], transcribedAt: at(700) }
    const open = [opened(), withMedia, transcribed]
    const recaptioned: Event = { _tag: "MessageEdited", messageId: messageId(1), sessionId, text: "From Ana Souza", links: [], editedAt: at(800) }
    spec.given(open).when(edit(1, "From Ana Souza", 800)).then([recaptioned])
    expect(textOf([...open, recaptioned])).toBe("From Ana Souza\n🎤 Monday.\n[photo, not read yet]")
    spec.given([...open, recaptioned]).when(edit(1, "From Ana Souza", 800)).thenRejects(rejected("edit-ignored", "the text did not change"))
  })
})

describe("a plan of media nobody could read", () => {
  it("files a voice note as what it is and says so in the reply", () => {
    const captionless: Event = { _tag: "MessageReceived", message: makeInboundMessage({ ...message(1, ""), kind: "media-without-text", attachments: [voice] }) }
    const unconfigured: Event = { _tag: "MediaFailed", ...at0, stage: "transcribe", permanent: true, reason: "no transcriber is configured", attempt: 1, failedAt: at(650) }
    const ownNote = plan({ unattached: [{ sourceItemSeqs: [1], directives: [] }] })
    spec.given([opened(), captionless, closed(1), unconfigured]).when(recordPlans([chunk(ownNote, 1, 1)], 3)).then([
      planProduced("plan_1", ownNote, 1, 1),
      noteRecorded("note_1", unattached, null, [1]),
      planApplied("plan_1", ["note_1"], []),
      replyQueued("reply_1", "Added 1 note: your own notes.\nI couldn't read this voice note: it is filed as what it is, and the note says why.")
    ])
    expect(textOf([opened(), captionless, closed(1), unconfigured])).toBe("[voice note, 0:42, not transcribed: no transcriber is configured]")
  })
})

/** A message's readable text: the sender's words, then each attachment's text or what it is, every character attributed. */
import { describe, expect, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { attachment } from "../src/Attachment.js"
import { clock, isAwaited, type MediaStatus, noStatus, readable } from "../src/Media.js"

const voice = attachment("voice", "file-1", { duration: 42 })
const photo = attachment("photo", "file-2", { width: 1280, height: 960 })
const transcribed = (text: string, model = "whisper-1"): MediaStatus => ({ ...noStatus, derived: { source: "speech", text, model, blank: null, pages: null } })
const failed = (reason: string, permanent: boolean): MediaStatus => ({ ...noStatus, failure: { stage: "transcribe", permanent, reason, attempt: 1 } })

describe("readable", () => {
  it("is the sender's text, whole, for a message without attachments", () => {
    expect(readable("Ana moved to Lisbon", [], [])).toEqual({
      text: "Ana moved to Lisbon",
      parts: [{ start: 0, end: 19, origin: { _tag: "Sender" } }]
    })
  })

  it("labels a transcript after the caption, attributed to its model", () => {
    expect(readable("From Ana", [voice], [transcribed("She starts at the clinic on Monday.")])).toEqual({
      text: "From Ana\n🎤 She starts at the clinic on Monday.",
      parts: [
        { start: 0, end: 8, origin: { _tag: "Sender" } },
        { start: 8, end: 9, origin: { _tag: "Rendering", attachment: null } },
        { start: 9, end: 12, origin: { _tag: "Rendering", attachment: 0 } },
        { start: 12, end: 47, origin: { _tag: "Derived", attachment: 0, source: "speech", model: "whisper-1" } }
      ]
    })
  })

  it("says what an attachment is while its text is awaited, never an empty text", () => {
    expect(readable("", [voice, photo], []).text).toBe("[voice note, 0:42, not transcribed yet]\n[photo, not read yet]")
  })

  it("gives the reason a voice note has no transcript", () => {
    expect(readable("", [voice], [failed("no transcriber is configured (VERBATIM_TRANSCRIBE_URL)", true)]).text)
      .toBe("[voice note, 0:42, not transcribed: no transcriber is configured (VERBATIM_TRANSCRIBE_URL)]")
  })

  it("says no speech was heard when the transcript is empty", () => {
    expect(readable("", [voice], [transcribed("  ")]).text).toBe("[voice note, 0:42, no speech heard]")
  })

  it("names a document by its file name and a video by its length while they are read, and an animation for what it is", () => {
    const doc = attachment("document", "file-3", { fileName: "lease \"final\".pdf" })
    const video = attachment("video", "file-4", { duration: 3725 })
    const gif = attachment("animation", "file-6", { duration: 3 })
    expect(readable("Signed", [doc, video, gif], []).text).toBe(
      "Signed\n[document, \"lease \\\"final\\\".pdf\", not read yet]\n[video, 1:02:05, not transcribed yet]\n[animation, 0:03]"
    )
  })

  it("says what a reading without text found: no text in a photo, no sound in a video, or what the reader said", () => {
    const video = attachment("video", "file-4", { duration: 12 })
    const read = (source: "image" | "speech" | "document", blank: string | null): MediaStatus => ({
      ...noStatus,
      derived: { source, text: "", model: "m", blank, pages: null }
    })
    expect(readable("", [photo, video, attachment("document", "file-7", { fileName: "scan.pdf" })], [
      read("image", null),
      read("speech", "no sound"),
      read("document", null)
    ]).text).toBe("[photo, no text found]\n[video, 0:12, no sound]\n[document, \"scan.pdf\", no text found]")
  })

  it("attributes each page of a document's text to its page, and what lies between pages to the reader alone", () => {
    const doc = attachment("document", "file-3", { fileName: "lease.pdf" })
    const text = "Lease for Ana\n\nSigned 3 May"
    const status: MediaStatus = {
      ...noStatus,
      derived: { source: "document", text, model: "pdftotext 22.12.0", blank: null, pages: [{ page: 1, start: 0, end: 13 }, { page: 2, start: 15, end: 27 }] }
    }
    const read = readable("", [doc], [status])
    expect(read.parts.map((p) => [read.text.slice(p.start, p.end), p.origin._tag === "Derived" ? p.origin.page ?? null : p.origin._tag])).toEqual([
      ["📄 ", "Rendering"],
      ["Lease for Ana", 1],
      ["\n\n", null],
      ["Signed 3 May", 2]
    ])
  })

  it("labels a document's text", () => {
    const doc = attachment("document", "file-3", { fileName: "notes.txt" })
    const status: MediaStatus = { ...noStatus, derived: { source: "document", text: "Ana: call on Monday", model: "text (UTF-8)", blank: null, pages: null } }
    expect(readable("", [doc], [status]).text).toBe("📄 Ana: call on Monday")
  })

  test.prop([fc.string(), fc.array(fc.option(fc.string(), { nil: null }), { minLength: 1, maxLength: 4 })])(
    "keeps the sender's text whole at the start, tiles the text with parts, and is never empty",
    (sender, transcripts) => {
      const attachments = transcripts.map(() => voice)
      const statuses = transcripts.map((t) => (t === null ? noStatus : transcribed(t)))
      const { parts, text } = readable(sender, attachments, statuses)
      expect(text.startsWith(sender)).toBe(true)
      expect(text).not.toBe("")
      expect(parts.map((p) => text.slice(p.start, p.end)).join("")).toBe(text)
      expect(parts.filter((p) => p.origin._tag === "Sender").map((p) => text.slice(p.start, p.end)).join("")).toBe(sender)
      const derived = parts.filter((p) => p.origin._tag === "Derived").map((p) => text.slice(p.start, p.end))
      expect(derived).toEqual(transcripts.filter((t): t is string => t !== null && t.trim() !== ""))
    }
  )
})

describe("isAwaited", () => {
  it("waits for speech, images, videos and documents until read or failed for good, never for animations or stickers", () => {
    expect([
      isAwaited(voice, noStatus),
      isAwaited(voice, failed("the transcriber is unavailable", false)),
      isAwaited(voice, failed("the file expired", true)),
      isAwaited(voice, transcribed("hello")),
      isAwaited(photo, noStatus),
      isAwaited(attachment("sticker", "file-5"), noStatus),
      isAwaited(attachment("video_note", "file-8"), noStatus),
      isAwaited(attachment("document", "file-9"), noStatus),
      isAwaited(attachment("animation", "file-10"), noStatus)
    ]).toEqual([true, true, false, false, true, false, true, true, false])
  })
})

describe("clock", () => {
  it("reads durations as a person does", () => {
    expect([clock(0), clock(42), clock(65.4), clock(3725)]).toEqual(["0:00", "0:42", "1:05", "1:02:05"])
  })
})

/**
 * Videos, video notes and documents end to end through the real HTTP server: webhook → fetch
 * from the fake Telegram's file API → ffmpeg, poppler and the transcriber → plan → note. Each
 * kind ends as text, or as what it is with why it has none, and the note says which.
 */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan, type Plan } from "@verbatim/domain/Plan"
import { FakeTranscriber, transcript } from "@verbatim/testkit/FakeTranscriber"
import { pdfOf, textPage } from "@verbatim/testkit/RealPdf"
import { silentMp4, spokenMp4 } from "@verbatim/testkit/RealMedia"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect } from "effect"
import { auditOf } from "../apiClient.js"
import { aliceUpdate, closeIdle, drain, filesOf, layer, noteBody, telegram, telegramCalls } from "../harness.js"

const mine = (...seqs: ReadonlyArray<number>): Plan => ({ ...emptyPlan, unattached: [{ sourceItemSeqs: seqs, directives: [] }] })

const file = (fileId: string, extra: Record<string, unknown>) => ({ file_id: fileId, file_unique_id: `u-${fileId}`, ...extra })

const post = (...bodies: ReadonlyArray<string>) =>
  Effect.forEach(bodies, (body) => Effect.map(telegram(body), (reply) => expect(reply).toEqual({ status: 200, body: "" })), { discard: true })

describe("videos, video notes and documents end to end", () => {
  it.effect("a video's speech, a silent video note, a PDF's pages and a file of no type read each become one note, in order", () =>
    Effect.gen(function*() {
      const files = yield* filesOf("telegram")
      yield* files.add("video-1", yield* spokenMp4("Ana moved to Porto in May."), { mimeType: "video/mp4" })
      yield* files.add("round-1", yield* silentMp4(2), { mimeType: "video/mp4" })
      yield* files.add("doc-1", pdfOf([textPage("Lease for Ana"), textPage("Signed 3 May")]), { mimeType: "application/pdf" })
      yield* files.add("doc-2", Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]), { mimeType: "application/zip" })
      yield* (yield* FakeTranscriber).answerNext(transcript("Ana moved to Porto in May."))
      yield* post(
        aliceUpdate(1, { video: file("video-1", { width: 160, height: 120, duration: 2, mime_type: "video/mp4", file_size: 40000 }) }),
        aliceUpdate(2, { video_note: file("round-1", { length: 240, duration: 2, file_size: 9000 }) }),
        aliceUpdate(3, { document: file("doc-1", { file_name: "lease.pdf", mime_type: "application/pdf", file_size: 900 }), caption: "The lease" }),
        aliceUpdate(4, { document: file("doc-2", { file_name: "photos.zip", mime_type: "application/zip", file_size: 8 }) })
      )
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      expect(yield* noteBody("note_1")).toBe(
        "🎤 Ana moved to Porto in May.\n\n[video note, 0:02, no sound]\n\nThe lease\n📄 Lease for Ana\n\nSigned 3 May\n\n" +
          "[document, \"photos.zip\", not read: unsupported type]"
      )
      // The transcriber heard the video's sound track, taken out as Opus; nothing was sent for the silent one.
      expect((yield* (yield* FakeTranscriber).uploads).map((u) => [u.fileName, u.container])).toEqual([["audio.ogg", "ogg"]])
      // The audit names the reader of every character, and the page each of the PDF's came from.
      const lease = (yield* auditOf("note_1")).sources.find((s) => s.seq === 3)!
      expect(lease.parts.map((p) => [lease.text.slice(p.start, p.end), p.origin._tag, p.origin._tag === "Derived" ? p.origin.page ?? null : null])).toEqual([
        ["The lease", "Sender", null],
        ["\n", "Rendering", null],
        ["📄 ", "Rendering", null],
        ["Lease for Ana", "Derived", 1],
        ["\n\n", "Derived", null],
        ["Signed 3 May", "Derived", 2]
      ])
      const models = lease.parts.flatMap((p) => p.origin._tag === "Derived" ? [p.origin.model] : [])
      expect(models.every((model) => /^pdftotext \d+\.\d+\.\d+$/.test(model))).toBe(true)
      // The reply says which was filed without its text.
      yield* drain
      expect((yield* telegramCalls).filter((c) => c.method === "sendMessage").map((c) => (c.body as { text: string }).text)).toEqual([
        "Added 1 note: your own notes.\nI couldn't read this document: it is filed as what it is, and the note says why."
      ])
    }).pipe(Effect.provide(layer([planStep(mine(1, 2, 3, 4))]))), 60_000)
})

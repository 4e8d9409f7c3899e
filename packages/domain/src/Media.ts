/**
 * Text derived from a message's attachments, and the message's text as the planner and a note
 * read it: the sender's own words first, then a line per attachment — its transcript or the text
 * read from it, labelled (`🎤 `, `🖼 `), or what it is when nothing could be read
 * (`[voice note, 0:42, not transcribed: <reason>]`). Nothing a message carried is left out, and
 * a message with attachments never reads as empty. Every character is attributed: to the sender,
 * to a reader (with its model), or to this rendering.
 */
import { Schema } from "effect"
import type { Attachment, AttachmentKind } from "./Attachment.js"

/** Where derived text came from: speech in a voice note, audio or video, the pixels of an image, or a document's text. */
export const DerivedSource = Schema.Literal("speech", "image", "document")
export type DerivedSource = typeof DerivedSource.Type

/** A stretch of a transcript, as the transcriber timed it. `silent`: probably no speech (Whisper invents words on silence). */
export const TranscriptSegment = Schema.Struct({
  start: Schema.Finite,
  end: Schema.Finite,
  text: Schema.String,
  noSpeechProb: Schema.NullOr(Schema.Finite),
  silent: Schema.Boolean
})
export type TranscriptSegment = typeof TranscriptSegment.Type

/** Where a page of a document's text lies in the reading: `[start, end)`, UTF-16 offsets. */
export const PageSpan = Schema.Struct({ page: Schema.Int, start: Schema.NonNegativeInt, end: Schema.NonNegativeInt })
export type PageSpan = typeof PageSpan.Type

/** Where an attachment stands: its bytes, and the text read from it. The newest outcome of each stage wins. */
export interface MediaStatus {
  readonly fetched: { readonly sha256: string; readonly size: number } | null
  /** The newest failure not since overcome, of either stage. */
  readonly failure: { readonly stage: "fetch" | "transcribe"; readonly permanent: boolean; readonly reason: string; readonly attempt: number } | null
  /**
   * The newest reading; a later one (another model) replaces it. `blank`: what the reader found
   * when it found no text (`no sound`), when it says.
   */
  readonly derived: {
    readonly source: DerivedSource
    readonly text: string
    readonly model: string
    readonly blank: string | null
    /** Where a document's pages lie in `text`, when it has pages. */
    readonly pages: ReadonlyArray<PageSpan> | null
  } | null
}

export const noStatus: MediaStatus = { fetched: null, failure: null, derived: null }

/**
 * Whether a reader turns this kind into text: the speech of voice notes, audio and videos is
 * transcribed, images are read, and documents by what they turn out to hold. Animations are
 * silent loops and stickers pictures of a word or two: neither is read.
 */
export const readerOf = (kind: AttachmentKind): DerivedSource | null => {
  switch (kind) {
    case "voice":
    case "audio":
    case "video":
    case "video_note":
      return "speech"
    case "photo":
    case "image":
      return "image"
    case "document":
      return "document"
    case "animation":
    case "sticker":
      return null
  }
}

/** What a reading without text says, by what was read, unless the reader said. */
const blankOf: Record<DerivedSource, string> = { speech: "no speech heard", image: "no text found", document: "no text found" }

/**
 * Whether planning should still wait for this attachment's text: a reader takes its kind, no
 * reading has landed, and no permanent failure says none will.
 */
export const isAwaited = (attachment: Attachment, status: MediaStatus): boolean =>
  readerOf(attachment.kind) !== null && status.derived === null && status.failure?.permanent !== true

const names: Record<AttachmentKind, string> = {
  voice: "voice note",
  audio: "audio",
  photo: "photo",
  image: "image",
  video: "video",
  video_note: "video note",
  animation: "animation",
  document: "document",
  sticker: "sticker"
}

/** What an attachment of this kind is called in a note (`voice note`, `video`). */
export const kindName = (kind: AttachmentKind): string => names[kind]

/** `0:42`, `1:05:09`: a duration as a person reads it. */
export const clock = (seconds: number): string => {
  const whole = Math.round(seconds)
  const h = Math.floor(whole / 3600)
  const m = Math.floor((whole % 3600) / 60)
  const s = String(whole % 60).padStart(2, "0")
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`
}

/**
 * What the attachments a reader takes but whose text is not had are (`voice note`, `photo`), for
 * the reply that files them as what they are; why each was not read stays in the note.
 */
export const unread = (attachments: ReadonlyArray<Attachment>, statuses: ReadonlyArray<MediaStatus | undefined>): Array<string> =>
  attachments.flatMap((attachment, i) =>
    readerOf(attachment.kind) === null || (statuses[i] ?? noStatus).derived !== null ? [] : [names[attachment.kind]]
  )

const labels: Record<DerivedSource, string> = { speech: "🎤 ", image: "🖼 ", document: "📄 " }

/** What an attachment is, in brackets: kind, file name, duration, and why it has no text when it should. */
const described = (attachment: Attachment, status: MediaStatus): string => {
  const facts = [names[attachment.kind]]
  if (attachment.fileName !== null) facts.push(JSON.stringify(attachment.fileName))
  if (attachment.duration !== null) facts.push(clock(attachment.duration))
  const reader = readerOf(attachment.kind)
  if (reader !== null) {
    const verb = reader === "speech" ? "not transcribed" : "not read"
    if (status.derived !== null) facts.push(status.derived.blank ?? blankOf[status.derived.source])
    else if (status.failure !== null) facts.push(`${verb}: ${status.failure.reason}`)
    else facts.push(`${verb} yet`)
  }
  return `[${facts.join(", ")}]`
}

/** Who wrote a stretch of a message's readable text. */
export const Origin = Schema.Union(
  Schema.TaggedStruct("Sender", {}),
  /** Read from an attachment by a transcriber, an image reader or a document reader, with its model (and the document's page). */
  Schema.TaggedStruct("Derived", {
    attachment: Schema.Number,
    source: DerivedSource,
    model: Schema.String,
    page: Schema.optionalWith(Schema.Number, { exact: true })
  }),
  /** Written by this rendering: labels, line breaks, the bracketed description of an attachment. */
  Schema.TaggedStruct("Rendering", { attachment: Schema.NullOr(Schema.Number) })
)
export type Origin = typeof Origin.Type

/** A stretch `[start, end)` of the readable text (UTF-16 offsets) and who wrote it. */
export const Part = Schema.Struct({ start: Schema.Number, end: Schema.Number, origin: Origin })
export type Part = typeof Part.Type

export interface Readable {
  readonly text: string
  readonly parts: ReadonlyArray<Part>
}

/**
 * A message's readable text from the sender's text, its attachments and their statuses (by
 * attachment index; a missing one is unknown yet). Without attachments it is the sender's text.
 */
export const readable = (
  senderText: string,
  attachments: ReadonlyArray<Attachment>,
  statuses: ReadonlyArray<MediaStatus | undefined>
): Readable => {
  if (attachments.length === 0) return { text: senderText, parts: senderText === "" ? [] : [{ start: 0, end: senderText.length, origin: { _tag: "Sender" } }] }
  let text = ""
  const parts: Array<Part> = []
  const push = (piece: string, origin: Origin) => {
    if (piece === "") return
    parts.push({ start: text.length, end: text.length + piece.length, origin })
    text += piece
  }
  push(senderText, { _tag: "Sender" })
  attachments.forEach((attachment, index) => {
    const status = statuses[index] ?? noStatus
    if (text !== "") push("\n", { _tag: "Rendering", attachment: null })
    const derived = status.derived
    if (derived !== null && derived.text.trim() !== "") {
      push(labels[derived.source], { _tag: "Rendering", attachment: index })
      const origin = { _tag: "Derived", attachment: index, source: derived.source, model: derived.model } as const
      let at = 0
      for (const span of derived.pages ?? []) {
        if (span.start < at || span.end > derived.text.length) continue
        push(derived.text.slice(at, span.start), origin)
        push(derived.text.slice(span.start, span.end), { ...origin, page: span.page })
        at = span.end
      }
      push(derived.text.slice(at), origin)
    } else {
      push(described(attachment, status), { _tag: "Rendering", attachment: index })
    }
  })
  return { text, parts }
}

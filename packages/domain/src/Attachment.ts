/**
 * What a message carries besides its text: the files it attached, as references the provider can
 * fetch later, and the links hidden behind its words. The text itself stays exactly what the
 * sender sent; these sit beside it.
 */
import { Schema } from "effect"

/** The provider's kind of attachment. A photo is Telegram's compressed image; an image is WhatsApp's. */
export const AttachmentKind = Schema.Literal(
  "voice",
  "audio",
  "photo",
  "image",
  "video",
  "video_note",
  "animation",
  "document",
  "sticker"
)
export type AttachmentKind = typeof AttachmentKind.Type

const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

/** A file attached to a message, as the provider describes it: enough to fetch it once, later. */
export const Attachment = Schema.Struct({
  kind: AttachmentKind,
  /** Telegram `file_id` (what `getFile` takes) or WhatsApp media id (what `GET /{media-id}` takes; valid for 7 days). */
  fileId: Schema.String,
  /** Telegram `file_unique_id`, the same file across bots and time; WhatsApp's `sha256` of the bytes. */
  uniqueId: Schema.NullOr(Schema.String),
  mimeType: Schema.NullOr(Schema.String),
  /** Bytes, when the provider says. */
  size: Schema.NullOr(Count),
  /** Seconds of a voice note, audio or video. */
  duration: Schema.NullOr(Schema.Finite.pipe(Schema.nonNegative())),
  width: Schema.NullOr(Count),
  height: Schema.NullOr(Count),
  fileName: Schema.NullOr(Schema.String)
})
export type Attachment = typeof Attachment.Type

/** An attachment with only the fields every provider gives; the rest unknown. */
export const attachment = (kind: AttachmentKind, fileId: string, known: Partial<Attachment> = {}): Attachment => ({
  kind,
  fileId,
  uniqueId: null,
  mimeType: null,
  size: null,
  duration: null,
  width: null,
  height: null,
  fileName: null,
  ...known
})

/**
 * A URL behind part of the text (Telegram's `text_link` entity): `offset` and `length` in UTF-16
 * code units of the message's text, as Telegram counts and as JavaScript strings index.
 */
export const Link = Schema.Struct({
  offset: Count,
  length: Schema.Number.pipe(Schema.int(), Schema.positive()),
  url: Schema.String
})
export type Link = typeof Link.Type

/** The part of a message a capture keeps beside its text. */
export const Extras = {
  attachments: Schema.Array(Attachment),
  links: Schema.Array(Link),
  /** Telegram's `media_group_id`: the messages of one album share it. */
  mediaGroup: Schema.NullOr(Schema.String)
}

/** A message with nothing beside its text. */
export const noExtras = { attachments: [], links: [], mediaGroup: null } as const

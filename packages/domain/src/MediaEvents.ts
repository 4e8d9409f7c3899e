/** What happened to a message's attachments after capture: bytes stored, a failure, text read. */
import { Schema } from "effect"
import { MessageId, SessionId } from "./Ids.js"
import { DerivedSource, PageSpan, TranscriptSegment } from "./Media.js"

/** Which of a message's attachments: its index in `attachments`. */
const AttachmentIndex = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

/** An attachment's bytes, stored content-addressed (the blob table holds them under `sha256`). */
export const MediaFetched = Schema.TaggedStruct("MediaFetched", {
  messageId: MessageId,
  sessionId: SessionId,
  attachment: AttachmentIndex,
  sha256: Schema.String,
  size: Schema.Finite,
  mimeType: Schema.NullOr(Schema.String),
  fetchedAt: Schema.DateTimeUtc
})

/** An attempt to fetch or read an attachment that failed; `permanent`: no later attempt can succeed. */
export const MediaFailed = Schema.TaggedStruct("MediaFailed", {
  messageId: MessageId,
  sessionId: SessionId,
  attachment: AttachmentIndex,
  stage: Schema.Literal("fetch", "transcribe"),
  permanent: Schema.Boolean,
  reason: Schema.String,
  attempt: Schema.Finite,
  failedAt: Schema.DateTimeUtc
})

/**
 * Text derived from an attachment: a transcript of speech, the text read from an image, or a document's text. Its
 * only home; the sender's caption stays in the message. A later one (another model) replaces it.
 */
export const MediaTranscribed = Schema.TaggedStruct("MediaTranscribed", {
  messageId: MessageId,
  sessionId: SessionId,
  attachment: AttachmentIndex,
  source: DerivedSource,
  text: Schema.String,
  model: Schema.String,
  /** The language the transcriber heard, when it says. */
  language: Schema.NullOr(Schema.String),
  segments: Schema.Array(TranscriptSegment),
  /** What the reader found when it found no text (`no sound`), when it says. */
  blank: Schema.optionalWith(Schema.String, { exact: true }),
  /** Where each page of a document lies in `text`. */
  pages: Schema.optionalWith(Schema.Array(PageSpan), { exact: true }),
  transcribedAt: Schema.DateTimeUtc
})

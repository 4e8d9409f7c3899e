/**
 * A message's attachments as rows of `message_media`, kept by the messages projection: each
 * attachment's reference, where fetching and reading it stand, and the text read from it. A
 * message's readable text is recomposed from these rows with the domain's `Media.readable`, so
 * the read model and the decider read a message the same way.
 */
import type { Attachment } from "@verbatim/domain/Attachment"
import { type MediaStatus, PageSpan, readable } from "@verbatim/domain/Media"
import { absurd, Schema } from "effect"
import type { StoredOf } from "../EventCodec.js"
import type { Batch, RowOf } from "./Rows.js"

/** A row of `message_media`. */
type MediaRow = RowOf<"message_media">

export type MediaEvent = StoredOf<"MediaFetched" | "MediaFailed" | "MediaTranscribed">

/** The rows of a received message's attachments, nothing fetched or read yet. */
export const attachmentRows = (m: StoredOf<"MessageReceived">["message"], position: number): ReadonlyArray<MediaRow> =>
  m.attachments.map((a, ordinal) => ({
    message_id: m.id,
    ordinal,
    session_id: m.sessionId,
    provider: m.provider,
    kind: a.kind,
    file_id: a.fileId,
    unique_id: a.uniqueId,
    mime_type: a.mimeType,
    size: a.size,
    duration: a.duration,
    width: a.width,
    height: a.height,
    file_name: a.fileName,
    sha256: null,
    stored_size: null,
    failure_stage: null,
    failure_permanent: null,
    failure_reason: null,
    attempts: 0,
    derived_source: null,
    derived_text: null,
    derived_model: null,
    language: null,
    segments: null,
    derived_blank: null,
    derived_pages: null,
    updated_at: null,
    position
  }))

const numberOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value))
const stringOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value))

/** The attachment a row describes. */
export const attachmentOf = (row: MediaRow): Attachment => ({
  kind: row.kind,
  fileId: String(row.file_id),
  uniqueId: stringOrNull(row.unique_id),
  mimeType: stringOrNull(row.mime_type),
  size: numberOrNull(row.size),
  duration: numberOrNull(row.duration),
  width: numberOrNull(row.width),
  height: numberOrNull(row.height),
  fileName: stringOrNull(row.file_name)
})

const decodePages = Schema.decodeUnknownSync(Schema.parseJson(Schema.Array(PageSpan)))

/** Where a row's attachment stands. */
export const statusOf = (row: MediaRow): MediaStatus => ({
  fetched: row["sha256"] == null ? null : { sha256: String(row["sha256"]), size: Number(row.stored_size) },
  failure: row.failure_stage == null ? null : {
    stage: row.failure_stage,
    permanent: Number(row.failure_permanent) === 1,
    reason: String(row.failure_reason),
    attempt: Number(row.attempts)
  },
  derived: row.derived_text == null || row.derived_source == null ? null : {
    source: row.derived_source,
    text: String(row.derived_text),
    model: String(row.derived_model),
    blank: stringOrNull(row.derived_blank),
    pages: row.derived_pages == null ? null : decodePages(String(row.derived_pages))
  }
})

/** A message's readable text, from its sender's text and its attachments' rows (in ordinal order). */
export const readableOf = (senderText: string, rows: ReadonlyArray<MediaRow>) =>
  readable(senderText, rows.map(attachmentOf), rows.map(statusOf))

/** What a media event changes in its attachment's row (absolute values: applying it again changes nothing). */
const changesOf = (event: MediaEvent, row: MediaRow): Partial<MediaRow> => {
  switch (event._tag) {
    case "MediaFetched":
      return {
        sha256: event.sha256,
        stored_size: event.size,
        mime_type: row.mime_type ?? event.mimeType,
        ...(row.failure_stage === "fetch" ? { failure_stage: null, failure_permanent: null, failure_reason: null, attempts: 0 } : {}),
        updated_at: event.fetchedAt
      }
    case "MediaFailed":
      return {
        failure_stage: event.stage,
        failure_permanent: event.permanent ? 1 : 0,
        failure_reason: event.reason,
        attempts: event.attempt,
        updated_at: event.failedAt
      }
    case "MediaTranscribed":
      return {
        failure_stage: null,
        failure_permanent: null,
        failure_reason: null,
        attempts: 0,
        derived_source: event.source,
        derived_text: event.text,
        derived_model: event.model,
        language: event.language,
        segments: JSON.stringify(event.segments),
        derived_blank: event.blank ?? null,
        derived_pages: event.pages === undefined ? null : JSON.stringify(event.pages),
        updated_at: event.transcribedAt
      }
    default:
      return absurd(event)
  }
}

/** Apply a media event to its row, once: a row already at this position or later is left as it is. */
export const applyMedia = (batch: Batch, event: MediaEvent, position: number): boolean => {
  const row = batch.get("message_media", event.messageId, event.attachment)
  if (!row || Number(row.position) >= position) return false
  batch.update("message_media", row, { ...changesOf(event, row), position })
  return true
}

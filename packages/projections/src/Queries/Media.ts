/** The media worker's queue: attachments whose bytes are not stored yet, or whose text a reader should still give. */
import { SqlClient } from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { AttachmentKind } from "@verbatim/domain/Attachment"
import { MessageId, Provider, SessionId, UserId } from "@verbatim/domain/Ids"
import { readerOf } from "@verbatim/domain/Media"
import { Effect, Schema } from "effect"
import { column, Num } from "./Columns.js"
import { pendingMedia } from "./Indexes.js"

const NullableNum = Schema.NullOr(Num)

/** One attachment with work owed on it, and how its earlier attempts went. */
export const MediaWork = Schema.Struct({
  messageId: column(MessageId, "message_id"),
  ordinal: Num,
  sessionId: column(SessionId, "session_id"),
  provider: Provider,
  sender: UserId,
  kind: AttachmentKind,
  fileId: column(Schema.String, "file_id"),
  uniqueId: column(Schema.NullOr(Schema.String), "unique_id"),
  mimeType: column(Schema.NullOr(Schema.String), "mime_type"),
  size: NullableNum,
  duration: NullableNum,
  width: NullableNum,
  height: NullableNum,
  fileName: column(Schema.NullOr(Schema.String), "file_name"),
  sha256: Schema.NullOr(Schema.String),
  failureStage: column(Schema.NullOr(Schema.Literal("fetch", "transcribe")), "failure_stage"),
  /** The newest failure is final: nothing is owed until someone asks again (`verbatim retranscribe`). */
  failurePermanent: column(Schema.NullOr(Num).pipe(Schema.transform(Schema.Boolean, { decode: (n) => n === 1, encode: (b) => (b ? 1 : 0) })), "failure_permanent"),
  failureReason: column(Schema.NullOr(Schema.String), "failure_reason"),
  /** The text the attachment reads as and the model that gave it, when it has some. */
  derivedText: column(Schema.NullOr(Schema.String), "derived_text"),
  derivedModel: column(Schema.NullOr(Schema.String), "derived_model"),
  attempts: Num,
  /** ISO time of the newest outcome, null before any. */
  updatedAt: column(Schema.NullOr(Schema.String), "updated_at")
})
export type MediaWork = typeof MediaWork.Type

const workColumns = `a.message_id, a.ordinal, a.session_id, a.provider, m.sender, a.kind, a.file_id, a.unique_id,
  a.mime_type, a.size, a.duration, a.width, a.height, a.file_name, a.sha256, a.failure_stage, a.failure_permanent, a.failure_reason,
  a.derived_text, a.derived_model,
  a.attempts, a.updated_at`

/** Kinds a reader turns into text (see `Media.readerOf`). */
const readable = AttachmentKind.literals.filter((kind) => readerOf(kind) !== null)

/**
 * Attachments to fetch (no bytes, no permanent fetch failure) or to read (bytes, a kind a reader
 * takes, no text, no permanent failure), oldest first, at most `limit`.
 */
export const mediaWork = (limit: number) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: Schema.Number,
      Result: MediaWork,
      execute: (n) =>
        sql`SELECT ${sql.literal(workColumns)}
          FROM message_media a JOIN messages m ON m.message_id = a.message_id
          WHERE ${sql.literal(pendingMedia)} AND m.erased_at IS NULL
            AND (a.sha256 IS NULL OR (a.derived_text IS NULL AND ${sql.in("a.kind", readable)}))
          ORDER BY a.position, a.ordinal LIMIT ${n}`
    })(limit))

/** One attachment's row, wherever it stands (for `verbatim retranscribe`). */
export const mediaOf = (messageOrSession: MessageId | SessionId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: Schema.String,
      Result: MediaWork,
      execute: (id) =>
        sql`SELECT ${sql.literal(workColumns)}
          FROM message_media a JOIN messages m ON m.message_id = a.message_id
          WHERE a.message_id = ${id} OR a.session_id = ${id} ORDER BY m.seq, a.ordinal`
    })(messageOrSession))

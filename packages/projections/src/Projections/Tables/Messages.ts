/**
 * The tables the messages projection owns: `messages` (each message's current readable text),
 * `message_edits` (the text each edit replaced) and `message_media` (attachments and what was
 * fetched and read from them).
 */
import { AttachmentKind } from "@verbatim/domain/Attachment"
import { DerivedSource } from "@verbatim/domain/Media"
import { Schema } from "effect"
import { Big, Int, Null, Real, table, Text } from "../Columns.js"

export const messages = table({
  name: "messages",
  row: Schema.Struct({
    message_id: Text,
    session_id: Text,
    seq: Int,
    provider: Text,
    provider_message_id: Text,
    sender: Text,
    chat: Text,
    kind: Text,
    text: Text,
    forwarded_from: Null(Text),
    reply_to: Null(Text),
    received_at: Text,
    edited_at: Null(Text),
    revisions: Int,
    sender_text: Null(Text),
    sent_at: Null(Text),
    erased_at: Null(Text)
  }),
  key: "message_id",
  created: [
    // Migration 8 adds `sender_text TEXT` and the `message_media` table (see `mediaTables`).
    `CREATE TABLE messages (message_id TEXT PRIMARY KEY, session_id TEXT NOT NULL, seq INTEGER NOT NULL,
    provider TEXT NOT NULL, provider_message_id TEXT NOT NULL, sender TEXT NOT NULL, chat TEXT NOT NULL,
    kind TEXT NOT NULL, text TEXT NOT NULL, forwarded_from TEXT, reply_to TEXT, received_at TEXT NOT NULL,
    edited_at TEXT, revisions INTEGER NOT NULL, UNIQUE (session_id, seq))`
  ]
})

export const messageEdits = table({
  name: "message_edits",
  row: Schema.Struct({ message_id: Text, position: Big, previous_text: Text, text: Text, edited_at: Text }),
  key: "message_id, position",
  indexed: ["message_id"],
  created: [
    `CREATE TABLE message_edits (message_id TEXT NOT NULL, position BIGINT NOT NULL, previous_text TEXT NOT NULL,
    text TEXT NOT NULL, edited_at TEXT NOT NULL, PRIMARY KEY (message_id, position))`
  ]
})

export const messageMedia = table({
  name: "message_media",
  row: Schema.Struct({
    message_id: Text,
    ordinal: Int,
    session_id: Text,
    provider: Text,
    kind: AttachmentKind,
    file_id: Text,
    unique_id: Null(Text),
    mime_type: Null(Text),
    size: Null(Big),
    duration: Null(Real),
    width: Null(Int),
    height: Null(Int),
    file_name: Null(Text),
    sha256: Null(Text),
    stored_size: Null(Big),
    failure_stage: Null(Schema.Literal("fetch", "transcribe")),
    failure_permanent: Null(Int),
    failure_reason: Null(Text),
    attempts: Int,
    derived_source: Null(DerivedSource),
    derived_text: Null(Text),
    derived_model: Null(Text),
    language: Null(Text),
    segments: Null(Text),
    derived_blank: Null(Text),
    derived_pages: Null(Text),
    updated_at: Null(Text),
    position: Big
  }),
  key: "message_id, ordinal",
  indexed: ["message_id"],
  created: [
    `CREATE TABLE message_media (message_id TEXT NOT NULL, ordinal INTEGER NOT NULL, session_id TEXT NOT NULL,
    provider TEXT NOT NULL, kind TEXT NOT NULL, file_id TEXT NOT NULL, unique_id TEXT, mime_type TEXT, size BIGINT,
    duration DOUBLE PRECISION, width INTEGER, height INTEGER, file_name TEXT, sha256 TEXT, stored_size BIGINT,
    failure_stage TEXT, failure_permanent INTEGER, failure_reason TEXT, attempts INTEGER NOT NULL,
    derived_source TEXT, derived_text TEXT, derived_model TEXT, language TEXT, segments TEXT, updated_at TEXT,
    position BIGINT NOT NULL, PRIMARY KEY (message_id, ordinal))`,
    `CREATE INDEX message_media_session ON message_media (session_id)`
  ]
})

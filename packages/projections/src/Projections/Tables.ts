/** The read-model tables: rebuildable from the log, so their DDL is shared by both backends. */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

/** Each table with the columns that order its dump (its primary key). */
export const tables = [
  { name: "people", key: "person_id" },
  { name: "sessions", key: "session_id" },
  { name: "messages", key: "message_id" },
  { name: "message_edits", key: "message_id, position" },
  { name: "message_media", key: "message_id, ordinal" },
  { name: "plans", key: "plan_id" },
  { name: "notes", key: "note_id" },
  { name: "note_sources", key: "message_id" },
  { name: "note_directives", key: "note_id, ordinal" },
  { name: "note_erasures", key: "note_id, message_id" },
  { name: "forgotten_items", key: "kind, item_id" },
  { name: "questions", key: "question_id" },
  { name: "question_messages", key: "question_id, message_id" },
  { name: "confirmations", key: "message_id" },
  { name: "instructions", key: "position" },
  { name: "replies", key: "reply_id" },
  { name: "reminders", key: "reminder_id" },
  { name: "user_zones", key: "user_id" },
  { name: "asks", key: "ask_id" }
] as const

export type TableName = (typeof tables)[number]["name"]

/** A read-model row, column name to value, as stored. */
export type Row = Record<string, unknown>

const ddl = [
  `CREATE TABLE people (person_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, name TEXT NOT NULL, position BIGINT NOT NULL)`,
  `CREATE INDEX people_user ON people (user_id)`,
  `CREATE TABLE sessions (session_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, provider TEXT NOT NULL, chat TEXT NOT NULL,
    opened_at TEXT NOT NULL, closed_at TEXT, close_reason TEXT, message_count INTEGER, last_plan_failure TEXT)`,
  // Migration 8 adds `sender_text TEXT` and the `message_media` table (see `mediaTables`).
  `CREATE TABLE messages (message_id TEXT PRIMARY KEY, session_id TEXT NOT NULL, seq INTEGER NOT NULL,
    provider TEXT NOT NULL, provider_message_id TEXT NOT NULL, sender TEXT NOT NULL, chat TEXT NOT NULL,
    kind TEXT NOT NULL, text TEXT NOT NULL, forwarded_from TEXT, reply_to TEXT, received_at TEXT NOT NULL,
    edited_at TEXT, revisions INTEGER NOT NULL, UNIQUE (session_id, seq))`,
  `CREATE TABLE message_edits (message_id TEXT NOT NULL, position BIGINT NOT NULL, previous_text TEXT NOT NULL,
    text TEXT NOT NULL, edited_at TEXT NOT NULL, PRIMARY KEY (message_id, position))`,
  // Migration 6 adds `superseded_by TEXT` (the plan a promoted replay put in this one's place).
  `CREATE TABLE plans (plan_id TEXT PRIMARY KEY, session_id TEXT NOT NULL, prompt_version TEXT NOT NULL,
    prompt_hash TEXT NOT NULL, model TEXT NOT NULL, input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL,
    cache_read_tokens INTEGER NOT NULL, cache_write_tokens INTEGER NOT NULL, from_seq INTEGER NOT NULL,
    to_seq INTEGER NOT NULL, supersedes TEXT, applied INTEGER NOT NULL, warnings TEXT, position BIGINT NOT NULL)`,
  `CREATE INDEX plans_session ON plans (session_id)`,
  `CREATE TABLE notes (note_id TEXT PRIMARY KEY, session_id TEXT NOT NULL, user_id TEXT NOT NULL, plan_id TEXT,
    question_id TEXT, owner_kind TEXT NOT NULL, owner_contact_id TEXT, owner_name TEXT, person_id TEXT,
    merged_from INTEGER NOT NULL, body TEXT NOT NULL, unmatched_directives INTEGER NOT NULL, position BIGINT NOT NULL)`,
  `CREATE INDEX notes_person ON notes (person_id)`,
  `CREATE INDEX notes_session ON notes (session_id)`,
  `CREATE TABLE note_sources (message_id TEXT PRIMARY KEY, note_id TEXT NOT NULL, seq INTEGER NOT NULL)`,
  `CREATE INDEX note_sources_note ON note_sources (note_id)`,
  `CREATE TABLE note_directives (note_id TEXT NOT NULL, ordinal INTEGER NOT NULL, message_id TEXT NOT NULL,
    seq INTEGER NOT NULL, text TEXT NOT NULL, matched INTEGER NOT NULL, PRIMARY KEY (note_id, ordinal))`,
  `CREATE TABLE questions (question_id TEXT PRIMARY KEY, session_id TEXT NOT NULL, user_id TEXT NOT NULL,
    plan_id TEXT, reason TEXT NOT NULL, candidates TEXT NOT NULL, status TEXT NOT NULL, answer TEXT,
    answered_at TEXT, position BIGINT NOT NULL)`,
  `CREATE INDEX questions_user ON questions (user_id, status)`,
  `CREATE TABLE question_messages (question_id TEXT NOT NULL, message_id TEXT NOT NULL, seq INTEGER NOT NULL,
    PRIMARY KEY (question_id, message_id))`,
  `CREATE INDEX question_messages_message ON question_messages (message_id)`,
  `CREATE TABLE confirmations (message_id TEXT PRIMARY KEY, question_id TEXT NOT NULL, note_id TEXT NOT NULL)`,
  `CREATE TABLE instructions (position BIGINT PRIMARY KEY, session_id TEXT NOT NULL, plan_id TEXT NOT NULL,
    message_id TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL)`,
  `CREATE INDEX instructions_message ON instructions (message_id)`,
  `CREATE TABLE replies (reply_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, provider TEXT NOT NULL, chat TEXT NOT NULL,
    text TEXT NOT NULL, buttons TEXT NOT NULL, question_id TEXT, status TEXT NOT NULL, attempts INTEGER NOT NULL,
    provider_message_id TEXT, sent_at TEXT, last_error TEXT, position BIGINT NOT NULL)`
]

/** A message's attachments and what was fetched and read from them; the sender's own words of a message that has some. */
export const mediaDdl = [
  `ALTER TABLE messages ADD COLUMN sender_text TEXT`,
  `CREATE TABLE message_media (message_id TEXT NOT NULL, ordinal INTEGER NOT NULL, session_id TEXT NOT NULL,
    provider TEXT NOT NULL, kind TEXT NOT NULL, file_id TEXT NOT NULL, unique_id TEXT, mime_type TEXT, size BIGINT,
    duration DOUBLE PRECISION, width INTEGER, height INTEGER, file_name TEXT, sha256 TEXT, stored_size BIGINT,
    failure_stage TEXT, failure_permanent INTEGER, failure_reason TEXT, attempts INTEGER NOT NULL,
    derived_source TEXT, derived_text TEXT, derived_model TEXT, language TEXT, segments TEXT, updated_at TEXT,
    position BIGINT NOT NULL, PRIMARY KEY (message_id, ordinal))`,
  `CREATE INDEX message_media_session ON message_media (session_id)`
]

/** Notes a user set aside (when), and people merged into another (whom into). */
export const curationDdl = [
  `ALTER TABLE notes ADD COLUMN discarded_at TEXT`,
  `ALTER TABLE people ADD COLUMN merged_into TEXT`,
  `CREATE INDEX people_merged_into ON people (merged_into)`
]

/** Reminders; the ones still to deliver indexed by due instant alone (a partial index, on both backends). */
export const remindersDdl = [
  `CREATE TABLE reminders (reminder_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, session_id TEXT NOT NULL,
    plan_id TEXT NOT NULL, message_id TEXT NOT NULL, quote TEXT NOT NULL, quote_start INTEGER NOT NULL,
    quote_end INTEGER NOT NULL, note_id TEXT, due_at BIGINT NOT NULL, zone TEXT NOT NULL, due_local TEXT NOT NULL,
    status TEXT NOT NULL, delivered_at TEXT, late INTEGER NOT NULL, finished_at TEXT, position BIGINT NOT NULL)`,
  `CREATE INDEX reminders_due ON reminders (due_at) WHERE status = 'scheduled'`,
  `CREATE INDEX reminders_user ON reminders (user_id, due_at)`,
  `CREATE INDEX reminders_message ON reminders (message_id)`,
  // How many reminders each plan proposed, and whether they were taken: plans still owing theirs are found by index.
  `ALTER TABLE plans ADD COLUMN reminders INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE plans ADD COLUMN reminders_taken INTEGER NOT NULL DEFAULT 0`,
  `CREATE INDEX plans_reminders_owed ON plans (position) WHERE reminders > 0 AND reminders_taken = 0`
]

/** Each user's time zone, as they set it last. */
export const userZonesDdl = [`CREATE TABLE user_zones (user_id TEXT PRIMARY KEY, zone TEXT NOT NULL, position BIGINT NOT NULL)`]

/**
 * Questions asked of users' notes and their answers (the kept quotes as JSON); those still to
 * answer, or answered in a chat whose reply is not yet queued (`owed_reply`), indexed by position
 * alone; each user's by position for their list.
 */
export const asksDdl = [
  `CREATE TABLE asks (ask_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, question TEXT NOT NULL, via TEXT NOT NULL,
    provider TEXT, chat TEXT, posted_at TEXT NOT NULL, status TEXT NOT NULL, quotes TEXT, dropped INTEGER,
    failure TEXT, finished_at TEXT, owed_reply INTEGER NOT NULL, position BIGINT NOT NULL)`,
  `CREATE INDEX asks_owed ON asks (position) WHERE status = 'posed' OR owed_reply = 1`,
  `CREATE INDEX asks_user ON asks (user_id, position)`,
  // A user's messages newest first: a question's newest messages, and on PostgreSQL the newest holding a common
  // word (walked in this order and checked against the search index, instead of sorting every match).
  `CREATE INDEX messages_sender_received ON messages (sender, received_at)`,
  // The names a person was known by before a rename, one a line: a question may still use one.
  `ALTER TABLE people ADD COLUMN former_names TEXT`
]

/**
 * When each message was sent, as its event says (its receipt time for events that do not), and
 * each user's messages by it: an import finds a live message by sender, minute and text. The
 * migration fills the rows written before it from the log (`fillSentAt`).
 */
export const sentAtDdl = [
  `ALTER TABLE messages ADD COLUMN sent_at TEXT`,
  `CREATE INDEX messages_sender_sent ON messages (sender, sent_at)`
]

/** What a reading without text found (`no sound`), and where a document's pages lie in its text (JSON). */
export const readingDetailsDdl = [
  `ALTER TABLE message_media ADD COLUMN derived_blank TEXT`,
  `ALTER TABLE message_media ADD COLUMN derived_pages TEXT`
]

/**
 * A plan that replaced others (a promoted replay) owes its reminders even when it proposes none:
 * taking them cancels what the replaced plans set and no live plan asks for any more.
 */
export const replannedRemindersDdl = [
  `DROP INDEX plans_reminders_owed`,
  `CREATE INDEX plans_reminders_owed ON plans (position) WHERE (reminders > 0 OR supersedes IS NOT NULL) AND reminders_taken = 0`
]

/**
 * A reply sent as a WhatsApp template (JSON), and when a reminder was held for WhatsApp's 24-hour
 * window; held reminders indexed by user alone (few, and looked for at every delivery pass).
 */
export const reminderWindowDdl = [
  `ALTER TABLE replies ADD COLUMN template TEXT`,
  `ALTER TABLE reminders ADD COLUMN held_at TEXT`,
  `CREATE INDEX reminders_held ON reminders (user_id) WHERE status = 'held'`
]

/** What each of a plan's reminders came to, as its `RemindersTaken` recorded them (JSON), for the accounting. */
export const reminderOutcomesDdl = [`ALTER TABLE plans ADD COLUMN reminder_outcomes TEXT`]

/** When a message's words were erased at its user's request (a forgetting); null while they are kept. */
export const erasedDdl = [
  `ALTER TABLE messages ADD COLUMN erased_at TEXT`,
  // Which forgettings' words are scrubbed from the log and files; not a read model (see `Scrub.ts`).
  `CREATE TABLE forget_scrubs (forget_id TEXT PRIMARY KEY, scrubbed_at BIGINT NOT NULL)`
]

/**
 * What a forgetting leaves to say it happened, with none of the words: the messages a kept note
 * lost (for its audit), and the notes and people that went (their addresses say so, a 410).
 */
export const forgettingTracesDdl = [
  `CREATE TABLE note_erasures (note_id TEXT NOT NULL, message_id TEXT NOT NULL, seq INTEGER NOT NULL,
    erased_at TEXT NOT NULL, PRIMARY KEY (note_id, message_id))`,
  `CREATE TABLE forgotten_items (kind TEXT NOT NULL, item_id TEXT NOT NULL, user_id TEXT NOT NULL,
    forgotten_at TEXT NOT NULL, PRIMARY KEY (kind, item_id))`
]

/**
 * Whom a note was filed under before merges resolved it (a plan, an answer or a move named them),
 * and whom a person was merged into directly (`merged_into` names the end of a chain), so an unmerge
 * gives a person back exactly their notes. Filled with what merges left: a store merged before this
 * gives the notes of those merges back on an unmerge once `verbatim rebuild` has replayed the log.
 */
export const mergeUndoDdl = [
  `ALTER TABLE notes ADD COLUMN filed_person_id TEXT`,
  `ALTER TABLE people ADD COLUMN merged_to TEXT`,
  `UPDATE notes SET filed_person_id = person_id`,
  `UPDATE people SET merged_to = merged_into`
]

/** Create every read-model table (a migration). */
export const createTables = Effect.gen(function*() {
  const sql = yield* SqlClient
  for (const statement of ddl) yield* sql.unsafe(statement)
})

/** Empty every read-model table, ready for a replay from position 0. */
export const truncateTables = Effect.gen(function*() {
  const sql = yield* SqlClient
  for (const table of tables) yield* sql.unsafe(`DELETE FROM ${table.name}`)
})

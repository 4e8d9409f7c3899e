/**
 * The read-model migration steps after the first, as DDL: history, since databases in the field
 * have run them, so their SQL never changes. A table a step created is declared (with the same
 * statements) beside the projection that owns it, in `Tables/`.
 */
import { asks } from "./Tables/Asks.js"
import { forgottenItems, noteErasures } from "./Tables/Erasures.js"
import { messageMedia } from "./Tables/Messages.js"
import { reminders } from "./Tables/Reminders.js"
import { userZones } from "./Tables/UserZones.js"

/** A message's attachments and what was fetched and read from them; the sender's own words of a message that has some. */
export const mediaDdl = [
  `ALTER TABLE messages ADD COLUMN sender_text TEXT`,
  ...messageMedia.created
]

/** Notes a user set aside (when), and people merged into another (whom into). */
export const curationDdl = [
  `ALTER TABLE notes ADD COLUMN discarded_at TEXT`,
  `ALTER TABLE people ADD COLUMN merged_into TEXT`,
  `CREATE INDEX people_merged_into ON people (merged_into)`
]

/** Reminders; the ones still to deliver indexed by due instant alone (a partial index, on both backends). */
export const remindersDdl = [
  ...reminders.created,
  // How many reminders each plan proposed, and whether they were taken: plans still owing theirs are found by index.
  `ALTER TABLE plans ADD COLUMN reminders INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE plans ADD COLUMN reminders_taken INTEGER NOT NULL DEFAULT 0`,
  `CREATE INDEX plans_reminders_owed ON plans (position) WHERE reminders > 0 AND reminders_taken = 0`
]

/** Each user's time zone, as they set it last. */
export const userZonesDdl = userZones.created

/**
 * Questions asked of users' notes and their answers (the kept quotes as JSON); those still to
 * answer, or answered in a chat whose reply is not yet queued (`owed_reply`), indexed by position
 * alone; each user's by position for their list.
 */
export const asksDdl = [
  ...asks.created,
  // A user's messages newest first: a question's newest messages, and on PostgreSQL the newest holding a common
  // word (walked in this order and checked against the search index, instead of sorting every match).
  // Replaced by `messages_sender_newest` (migration 29, `Queries/Indexes.ts`).
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
  ...noteErasures.created,
  ...forgottenItems.created
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

/** The quotes each asker confirmed answer their question, kept beside it (JSON), so a list of questions reads no stream. */
export const confirmedQuotesDdl = [`ALTER TABLE asks ADD COLUMN confirmed TEXT`]

/**
 * Indexes the reads need beyond each table's own (migrations 27, 29 and 30), each named with the
 * reads it serves. `test/QueryPlans.test.ts` explains every read on both backends and names what any of
 * them still walks whole. A partial index serves a query only when the query's own `WHERE` holds
 * its condition word for word (SQLite proves no more than that), so the queries repeat them.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

/** The condition of `sessions_open`: sessions still gathering messages. */
const openSession = "closed_at IS NULL"

/** The condition of `sessions_unplanned`: closed sessions no applied plan has filed (migration 28). */
export const unplannedSession = "closed_at IS NOT NULL AND applied_plans = 0"

/** The condition of `message_media_pending`: attachments not yet fetched, or fetched and not yet read, and not given up on. */
export const pendingMedia = "(failure_permanent IS NULL OR failure_permanent = 0) AND (sha256 IS NULL OR derived_text IS NULL)"

/** The conditions of `notes_person_live` and `notes_person_discarded`: notes not discarded, and discarded. */
export const liveNote = "discarded_at IS NULL"
export const discardedNote = "discarded_at IS NOT NULL"

/** The condition of `reminders_live`: reminders still to deliver, hold or finish. */
export const liveReminder = "status IN ('asking', 'scheduled', 'held', 'delivered')"

export const readIndexesDdl = [
  // A user's notes, newest first: their export (`notebook`) and the list of users who have notes.
  `CREATE INDEX notes_user ON notes (user_id, position)`,
  // A session's accounting: its questions, instructions and reminders.
  `CREATE INDEX questions_session ON questions (session_id)`,
  `CREATE INDEX instructions_session ON instructions (session_id, position)`,
  `CREATE INDEX reminders_session ON reminders (session_id, position)`,
  // The idle check and the queue depths read the open sessions only.
  `CREATE INDEX sessions_open ON sessions (session_id) WHERE ${openSession}`,
  // Replay picks closed sessions by when they opened.
  `CREATE INDEX sessions_opened ON sessions (opened_at, session_id)`,
  // The outbox's queue, oldest first.
  `CREATE INDEX replies_queued ON replies (position) WHERE status = 'queued'`,
  // The media worker's queue, oldest first.
  `CREATE INDEX message_media_pending ON message_media (position, ordinal) WHERE ${pendingMedia}`,
  // Reminders whose words a forgetting may have taken.
  `CREATE INDEX reminders_live ON reminders (position) WHERE ${liveReminder}`
]

/**
 * Each session's count of applied plans (kept by the plans projection), filled from the plans
 * table, and the index of the closed sessions it leaves at none: the planner's queue.
 */
export const appliedPlansDdl = [
  `ALTER TABLE sessions ADD COLUMN applied_plans INTEGER NOT NULL DEFAULT 0`,
  `UPDATE sessions SET applied_plans = (SELECT COUNT(*) FROM plans p WHERE p.session_id = sessions.session_id AND p.applied = 1)`,
  `CREATE INDEX sessions_unplanned ON sessions (session_id) WHERE ${unplannedSession}`
]

/**
 * Indexes that hand the paged reads their rows in the order they page by (migration 29), so a
 * page costs its own rows however many match: before them each read found every match, sorted
 * them and kept a page (a person's 20,000 notes, to show 50). Those that replace an index begin
 * with its columns, and serve the same lookups.
 */
export const orderedReadIndexesDdl = [
  // A person's live notes in the order they were filed, and their count; their discarded ones
  // apart (partial: PostgreSQL takes no order from an index past an `IS NULL` column).
  `CREATE INDEX notes_person_live ON notes (person_id, position) WHERE ${liveNote}`,
  `CREATE INDEX notes_person_discarded ON notes (person_id, position) WHERE ${discardedNote}`,
  // A user's people by id: the people list, and the people a plan is given.
  `DROP INDEX people_user`,
  `CREATE INDEX people_user_id ON people (user_id, person_id)`,
  // Questions by status in the order they were parked: a user's, and everyone's.
  `DROP INDEX questions_user`,
  `CREATE INDEX questions_user_parked ON questions (user_id, status, position)`,
  `CREATE INDEX questions_parked ON questions (status, position)`,
  // A user's messages newest first: search on PostgreSQL (SQLite's full-text index keeps that
  // order itself), and when a user was last heard from.
  `DROP INDEX messages_sender_received`,
  `CREATE INDEX messages_sender_newest ON messages (sender, received_at, message_id)`,
  // A user's reminders, soonest due first.
  `DROP INDEX reminders_user`,
  `CREATE INDEX reminders_user_due ON reminders (user_id, due_at, reminder_id)`
]

/**
 * A user's closed sessions no applied plan has filed (migration 31): the banner counts their
 * messages while filing waits, without walking the user's planned sessions.
 */
export const unplannedByUserDdl = [`CREATE INDEX sessions_unplanned_user ON sessions (user_id) WHERE ${unplannedSession}`]

/** A person's activity: the position of their newest note not discarded, or where they were added when they have none. */
export const personActivity = (people: string) =>
  `COALESCE((SELECT MAX(n.position) FROM notes n WHERE n.person_id = ${people}.person_id AND n.discarded_at IS NULL), ${people}.position)`

/**
 * Each person's activity, kept (migration 32): the flush of a batch that changed notes sets it
 * again for the people those notes were and are filed under (`Projections/Activity.ts`). The people
 * page then reads the most active from an index instead of ranking every person per request.
 */
export const activityDdl = [
  `ALTER TABLE people ADD COLUMN active BIGINT NOT NULL DEFAULT 0`,
  `UPDATE people SET active = ${personActivity("people")}`,
  `CREATE INDEX people_user_active ON people (user_id, active DESC, person_id) WHERE merged_into IS NULL`,
  `CREATE INDEX people_active ON people (active DESC, person_id) WHERE merged_into IS NULL`
]

/**
 * Everyone's messages newest first (migration 30, PostgreSQL only): a search without a user walks
 * it as a user's search walks `messages_sender_newest`. SQLite's full-text index hands every
 * user's matches in that order itself, so there the index would cost every capture a write for
 * nothing.
 */
export const newestMessages = Effect.flatMap(SqlClient, (sql) =>
  sql.onDialectOrElse({
    pg: () => Effect.asVoid(sql`CREATE INDEX messages_newest ON messages (received_at, message_id)`),
    orElse: () => Effect.void
  }))

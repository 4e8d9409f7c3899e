/** Schema migrations of the event log and read models, run by @effect/sql's Migrator; dialect differences via `sql.onDialectOrElse`. */
import * as Migrator from "@effect/sql/Migrator"
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"
import { blobTables } from "./Blobs.js"
import { asksDdl, confirmedQuotesDdl, curationDdl, erasedDdl, mediaDdl, forgettingTracesDdl, mergeUndoDdl, readingDetailsDdl, reminderOutcomesDdl, reminderWindowDdl, remindersDdl, replannedRemindersDdl, sentAtDdl, userZonesDdl } from "./Projections/TableHistory.js"
import { createTables } from "./Projections/Tables.js"
import { repliesByChat } from "./Queries/Replies.js"
import { activityDdl, appliedPlansDdl, newestMessages, orderedReadIndexesDdl, readIndexesDdl, unplannedByUserDdl } from "./Queries/Indexes.js"
import { searchIndex, searchWithoutAccents } from "./Queries/SearchIndex.js"
import { replayReportsTable } from "./ReplayReports.js"
import { fillConfirmedQuotes, fillReminderOutcomes, fillSentAt } from "./Backfills.js"

export { fillConfirmedQuotes, fillReminderOutcomes, fillSentAt } from "./Backfills.js"

/** A migration that runs these statements in order. */
const runDdl = (statements: ReadonlyArray<string>) =>
  Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))

/** Where the event log's columns differ: how positions are numbered, and how wide a whole number is. */
interface EventColumns {
  /** The log position: assigned by the database, in append order. */
  readonly position: string
  /** The appending transaction, for the PostgreSQL reader's order; SQLite has one writer, so 0. */
  readonly txId: string
  /** A position or a millisecond time. */
  readonly bigint: string
}

const sqliteColumns: EventColumns = {
  position: "INTEGER PRIMARY KEY AUTOINCREMENT",
  txId: "INTEGER NOT NULL DEFAULT 0",
  bigint: "INTEGER"
}

const pgColumns: EventColumns = {
  position: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
  txId: "BIGINT NOT NULL DEFAULT (pg_current_xact_id()::text::bigint)",
  bigint: "BIGINT"
}

/**
 * The event log and its idempotency keys. The statements' text is what SQLite keeps as the
 * schema, so it is unchanged from when each backend had its own copy.
 */
const events = Effect.gen(function*() {
  const sql = yield* SqlClient
  const c = sql.onDialectOrElse({ pg: () => pgColumns, orElse: () => sqliteColumns })
  yield* sql`CREATE TABLE events (
    position ${sql.literal(c.position)},
    tx_id ${sql.literal(c.txId)},
    stream TEXT NOT NULL,
    version INTEGER NOT NULL,
    type TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    payload TEXT NOT NULL,
    metadata TEXT NOT NULL,
    recorded_at ${sql.literal(c.bigint)} NOT NULL,
    UNIQUE (stream, version)
  )`
  // The PostgreSQL reader's order; on SQLite, position order is the reader's and the key serves it.
  yield* sql.onDialectOrElse({
    pg: () => Effect.asVoid(sql`CREATE INDEX events_reader ON events (tx_id, position)`),
    orElse: () => Effect.void
  })
  yield* sql`CREATE TABLE idempotency_keys (
    provider TEXT NOT NULL,
    provider_message_id TEXT NOT NULL,
    position ${sql.literal(c.bigint)} NOT NULL,
    PRIMARY KEY (provider, provider_message_id)
  )`
})

/** Who may plan a session or send a reply right now (the server's leases): coordination, not a projection. */
const leases = Effect.flatMap(SqlClient, (sql) =>
  sql`CREATE TABLE leases (lease_key TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at BIGINT NOT NULL)`)

/**
 * Indexes for the hot read paths: a capture finds its conversation's sessions, the scheduler the
 * newest message of each open session, an edit its message by provider id. Without them each was
 * a scan that grew with the store.
 */
const lookupIndexes = Effect.flatMap(SqlClient, (sql) =>
  Effect.all([
    sql`CREATE INDEX sessions_conversation ON sessions (user_id, provider, chat)`,
    sql`CREATE INDEX messages_session_received ON messages (session_id, received_at)`,
    sql`CREATE INDEX messages_provider_id ON messages (provider, provider_message_id)`
  ], { discard: true }))

/**
 * Two of those indexes restated keys the table already has, and every capture paid for them:
 * a message's id is `provider:providerMessageId`, so its primary key finds it by provider id,
 * and a session's last message by seq (its `UNIQUE (session_id, seq)`) is the newest one.
 */
const leanerMessageIndexes = Effect.flatMap(SqlClient, (sql) =>
  Effect.all([
    sql`DROP INDEX IF EXISTS messages_session_received`,
    sql`DROP INDEX IF EXISTS messages_provider_id`
  ], { discard: true }))

/** Set each plan's `superseded_by` from the first plan (by position) that names it in `supersedes`. */
export const fillSupersededBy = Effect.flatMap(SqlClient, (sql) =>
  sql`UPDATE plans SET superseded_by = (SELECT s.plan_id FROM plans s WHERE s.supersedes = plans.plan_id
    ORDER BY s.position LIMIT 1)`)

/**
 * A superseded plan is marked with the plan that replaced it, so that applying its notes,
 * questions or instructions again (a replayed batch) leaves them retired. Existing rows are
 * filled from the superseding plans' `supersedes`.
 */
export const supersededPlans = Effect.flatMap(SqlClient, (sql) =>
  Effect.all([
    sql`ALTER TABLE plans ADD COLUMN superseded_by TEXT`,
    fillSupersededBy
  ], { discard: true }))

/**
 * When each lease was taken, so `retry` can say since when a session is being planned. Rows
 * taken before this migration get 0: their time was not recorded, and they expire soon anyway.
 */
const leaseAcquiredAt = Effect.flatMap(SqlClient, (sql) =>
  sql`ALTER TABLE leases ADD COLUMN acquired_at BIGINT NOT NULL DEFAULT 0`)

/** How many holders in a row died holding a lease: work that keeps killing the process stops being tried. */
const leaseLapses = Effect.flatMap(SqlClient, (sql) => sql`ALTER TABLE leases ADD COLUMN lapses INTEGER NOT NULL DEFAULT 0`)

/**
 * Attachments become rows of their own and a message keeps its sender's words beside its readable
 * text. Messages captured before have no such rows; a store that holds messages with attachments
 * from before this migration gets them (and the readable text of those messages and their notes)
 * from `verbatim rebuild`, which replays the log through the current projections.
 */
const messageMedia = runDdl(mediaDdl)

/** Curation's columns; a store from before has no curation events, so nothing needs filling. */
const curation = runDdl(curationDdl)

/** Reminders' table; a store from before has no reminder events, so nothing needs filling. */
const reminders = runDdl(remindersDdl)

/** Users' time zones; a store from before has no zone events. */
const userZones = runDdl(userZonesDdl)

/** Questions asked of the notes; a store from before has none. */
const asks = runDdl(asksDdl)

/** What a reading found when it found no text, and a document's pages; readings recorded before carry neither. */
const readingDetails = runDdl(readingDetailsDdl)

/** Messages' send times, by sender (see `sentAtDdl`), filled from the log. */
const messageSentAt = Effect.zipRight(runDdl(sentAtDdl), fillSentAt)

/** Plans that replaced others owe their reminders (see `replannedRemindersDdl`). */
const replannedReminders = runDdl(replannedRemindersDdl)

/** Replies sent as WhatsApp templates, reminders held for its window (see `reminderWindowDdl`). */
const reminderWindow = runDdl(reminderWindowDdl)

/** What each plan's reminders came to: the column, filled from the log. */
const reminderOutcomes = Effect.zipRight(runDdl(reminderOutcomesDdl), fillReminderOutcomes)

const run = Migrator.make({})

const migrations = {
  "1_events": events,
  "2_projections": createTables,
  "3_leases": leases,
  "4_lookup_indexes": lookupIndexes,
  "5_leaner_message_indexes": leanerMessageIndexes,
  "6_superseded_plans": supersededPlans,
  "7_lease_acquired_at": leaseAcquiredAt,
  "8_message_media": messageMedia,
  "9_media_blobs": blobTables,
  "10_message_search": searchIndex,
  "11_replies_by_chat": repliesByChat,
  "12_curation": curation,
  "13_replay_reports": replayReportsTable,
  "14_lease_lapses": leaseLapses,
  "15_reminders": reminders,
  "16_user_zones": userZones,
  "17_asks": asks,
  "18_message_sent_at": messageSentAt,
  "19_reading_details": readingDetails,
  "20_replanned_reminders": replannedReminders,
  "21_reminder_window": reminderWindow,
  "22_reminder_outcomes": reminderOutcomes,
  "23_erased_messages": runDdl(erasedDdl),
  "24_forgetting_traces": runDdl(forgettingTracesDdl),
  "25_search_without_accents": searchWithoutAccents,
  "26_merge_undo": runDdl(mergeUndoDdl),
  "27_read_indexes": runDdl(readIndexesDdl),
  "28_applied_plans": runDdl(appliedPlansDdl),
  "29_ordered_reads": runDdl(orderedReadIndexesDdl),
  "30_newest_messages": newestMessages,
  "31_unplanned_by_user": runDdl(unplannedByUserDdl),
  "32_person_activity": runDdl(activityDdl),
  // The quotes askers confirmed: the column, filled from the log.
  "33_confirmed_quotes": Effect.zipRight(runDdl(confirmedQuotesDdl), fillConfirmedQuotes)
}

export const table = "verbatim_migrations"

/** The newest migration's id: a database that has applied it is current. */
export const latest = Math.max(...Object.keys(migrations).map((key) => Number.parseInt(key, 10)))

/** Bring a database up to date (either backend, by its client's dialect); safe to run at every start. */
export const migrate = run({ table, loader: Migrator.fromRecord(migrations) })

/**
 * The newest migration a SQLite database has applied, 0 for one never migrated; reads only, so
 * a read-only open can tell whether it may skip `migrate`.
 */
export const appliedSqlite = Effect.gen(function*() {
  const sql = yield* SqlClient
  const tables = yield* sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ${table}`
  if (tables.length === 0) return 0
  const rows = yield* sql<{ id: number | null }>`SELECT MAX(migration_id) AS id FROM ${sql(table)}`
  return Number(rows[0]?.id ?? 0)
})

/**
 * The table the reminders projection owns: `reminders`, those still to deliver indexed by due
 * instant alone (a partial index, on both backends).
 */
import { Schema } from "effect"
import { Big, Int, Null, table, Text } from "../Columns.js"

export const reminders = table({
  name: "reminders",
  row: Schema.Struct({
    reminder_id: Text,
    user_id: Text,
    session_id: Text,
    plan_id: Text,
    message_id: Text,
    quote: Text,
    quote_start: Int,
    quote_end: Int,
    note_id: Null(Text),
    due_at: Big,
    zone: Text,
    due_local: Text,
    status: Text,
    delivered_at: Null(Text),
    held_at: Null(Text),
    late: Int,
    finished_at: Null(Text),
    position: Big
  }),
  key: "reminder_id",
  indexed: ["message_id"],
  created: [
    `CREATE TABLE reminders (reminder_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, session_id TEXT NOT NULL,
    plan_id TEXT NOT NULL, message_id TEXT NOT NULL, quote TEXT NOT NULL, quote_start INTEGER NOT NULL,
    quote_end INTEGER NOT NULL, note_id TEXT, due_at BIGINT NOT NULL, zone TEXT NOT NULL, due_local TEXT NOT NULL,
    status TEXT NOT NULL, delivered_at TEXT, late INTEGER NOT NULL, finished_at TEXT, position BIGINT NOT NULL)`,
    `CREATE INDEX reminders_due ON reminders (due_at) WHERE status = 'scheduled'`,
    // Replaced by `reminders_user_due` (migration 29, `Queries/Indexes.ts`).
    `CREATE INDEX reminders_user ON reminders (user_id, due_at)`,
    `CREATE INDEX reminders_message ON reminders (message_id)`
  ]
})

/**
 * The table the sessions projection owns: `sessions`, each session's opening, closing and last
 * planning failure; the plans projection keeps its count of applied plans (migration 28).
 */
import { Schema } from "effect"
import { Int, Null, table, Text } from "../Columns.js"

export const sessions = table({
  name: "sessions",
  row: Schema.Struct({
    session_id: Text,
    user_id: Text,
    provider: Text,
    chat: Text,
    opened_at: Text,
    closed_at: Null(Text),
    close_reason: Null(Text),
    message_count: Null(Int),
    last_plan_failure: Null(Text),
    applied_plans: Int
  }),
  key: "session_id",
  created: [
    `CREATE TABLE sessions (session_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, provider TEXT NOT NULL, chat TEXT NOT NULL,
    opened_at TEXT NOT NULL, closed_at TEXT, close_reason TEXT, message_count INTEGER, last_plan_failure TEXT)`
  ]
})

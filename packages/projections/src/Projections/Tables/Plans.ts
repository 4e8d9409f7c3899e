/** The table the plans projection owns: `plans`, each model call's plan, whether it was applied, and what replaced it. */
import { Schema } from "effect"
import { Big, Int, Null, table, Text } from "../Columns.js"

export const plans = table({
  name: "plans",
  row: Schema.Struct({
    plan_id: Text,
    session_id: Text,
    prompt_version: Text,
    prompt_hash: Text,
    model: Text,
    input_tokens: Int,
    output_tokens: Int,
    cache_read_tokens: Int,
    cache_write_tokens: Int,
    from_seq: Int,
    to_seq: Int,
    supersedes: Null(Text),
    applied: Int,
    warnings: Null(Text),
    position: Big,
    superseded_by: Null(Text),
    reminders: Int,
    reminders_taken: Int,
    reminder_outcomes: Null(Text)
  }),
  key: "plan_id",
  created: [
    // Migration 6 adds `superseded_by TEXT` (the plan a promoted replay put in this one's place).
    `CREATE TABLE plans (plan_id TEXT PRIMARY KEY, session_id TEXT NOT NULL, prompt_version TEXT NOT NULL,
    prompt_hash TEXT NOT NULL, model TEXT NOT NULL, input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL,
    cache_read_tokens INTEGER NOT NULL, cache_write_tokens INTEGER NOT NULL, from_seq INTEGER NOT NULL,
    to_seq INTEGER NOT NULL, supersedes TEXT, applied INTEGER NOT NULL, warnings TEXT, position BIGINT NOT NULL)`,
    `CREATE INDEX plans_session ON plans (session_id)`
  ]
})

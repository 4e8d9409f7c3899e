/** The tables the questions projection owns: `questions` parked for a user, and the `question_messages` each holds. */
import { Schema } from "effect"
import { Big, Int, Null, table, Text } from "../Columns.js"

export const questions = table({
  name: "questions",
  row: Schema.Struct({
    question_id: Text,
    session_id: Text,
    user_id: Text,
    plan_id: Null(Text),
    reason: Text,
    candidates: Text,
    status: Text,
    answer: Null(Text),
    answered_at: Null(Text),
    position: Big
  }),
  key: "question_id",
  indexed: ["plan_id", "user_id"],
  created: [
    `CREATE TABLE questions (question_id TEXT PRIMARY KEY, session_id TEXT NOT NULL, user_id TEXT NOT NULL,
    plan_id TEXT, reason TEXT NOT NULL, candidates TEXT NOT NULL, status TEXT NOT NULL, answer TEXT,
    answered_at TEXT, position BIGINT NOT NULL)`,
    // Replaced by `questions_user_parked` (migration 29, `Queries/Indexes.ts`).
    `CREATE INDEX questions_user ON questions (user_id, status)`
  ]
})

export const questionMessages = table({
  name: "question_messages",
  row: Schema.Struct({ question_id: Text, message_id: Text, seq: Int }),
  key: "question_id, message_id",
  indexed: ["question_id"],
  created: [
    `CREATE TABLE question_messages (question_id TEXT NOT NULL, message_id TEXT NOT NULL, seq INTEGER NOT NULL,
    PRIMARY KEY (question_id, message_id))`,
    `CREATE INDEX question_messages_message ON question_messages (message_id)`
  ]
})

/**
 * The table the asks projection owns: `asks`, questions asked of users' notes and their answers
 * (the kept quotes as JSON); those still to answer, or answered in a chat whose reply is not yet
 * queued (`owed_reply`), indexed by position alone; each user's by position for their list.
 */
import { Schema } from "effect"
import { Big, Int, Null, table, Text } from "../Columns.js"

export const asks = table({
  name: "asks",
  row: Schema.Struct({
    ask_id: Text,
    user_id: Text,
    question: Text,
    via: Text,
    provider: Null(Text),
    chat: Null(Text),
    posted_at: Text,
    status: Text,
    quotes: Null(Text),
    dropped: Null(Int),
    failure: Null(Text),
    finished_at: Null(Text),
    owed_reply: Int,
    position: Big,
    /** The quotes the asker confirmed answer the question, as a JSON list of `message:start-end` in the order confirmed (migration 33). */
    confirmed: Null(Text)
  }),
  key: "ask_id",
  indexed: ["user_id"],
  created: [
    `CREATE TABLE asks (ask_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, question TEXT NOT NULL, via TEXT NOT NULL,
    provider TEXT, chat TEXT, posted_at TEXT NOT NULL, status TEXT NOT NULL, quotes TEXT, dropped INTEGER,
    failure TEXT, finished_at TEXT, owed_reply INTEGER NOT NULL, position BIGINT NOT NULL)`,
    `CREATE INDEX asks_owed ON asks (position) WHERE status = 'posed' OR owed_reply = 1`,
    `CREATE INDEX asks_user ON asks (user_id, position)`
  ]
})

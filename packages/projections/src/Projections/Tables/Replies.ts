/** The table the replies projection owns: `replies`, each reply queued for a user and how sending it went. */
import { Schema } from "effect"
import { Big, Int, Null, table, Text } from "../Columns.js"

export const replies = table({
  name: "replies",
  row: Schema.Struct({
    reply_id: Text,
    user_id: Text,
    provider: Text,
    chat: Text,
    text: Text,
    buttons: Text,
    template: Null(Text),
    question_id: Null(Text),
    status: Text,
    attempts: Int,
    provider_message_id: Null(Text),
    sent_at: Null(Text),
    last_error: Null(Text),
    position: Big
  }),
  key: "reply_id",
  indexed: ["user_id"],
  created: [
    `CREATE TABLE replies (reply_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, provider TEXT NOT NULL, chat TEXT NOT NULL,
    text TEXT NOT NULL, buttons TEXT NOT NULL, question_id TEXT, status TEXT NOT NULL, attempts INTEGER NOT NULL,
    provider_message_id TEXT, sent_at TEXT, last_error TEXT, position BIGINT NOT NULL)`
  ]
})

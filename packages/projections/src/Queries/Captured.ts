/** A user's messages by when they were sent and what they said: how an import finds what the log already has. */
import { SqlClient } from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { UserId } from "@verbatim/domain/Ids"
import { Effect, Schema } from "effect"
import { column, IsoTime, Num } from "./Columns.js"

/** A message as an import compares it: its provider id, when it was sent, and the sender's own words. */
export const SentMessage = Schema.Struct({
  providerMessageId: column(Schema.String, "provider_message_id"),
  sentAt: column(IsoTime, "sent_at"),
  text: Schema.String,
  /** Its words were forgotten: it stands for an exported line of its minute whatever that line says. */
  erased: Schema.transform(Num, Schema.Boolean, { strict: true, decode: (n) => n === 1, encode: (b) => (b ? 1 : 0) })
})
export type SentMessage = typeof SentMessage.Type

const Request = Schema.Struct({ user: UserId, from: IsoTime, to: IsoTime, text: Schema.String })

/**
 * A user's messages sent in [from, to) whose sender's own words (without an attachment's derived
 * text) are exactly `text`, and those of its minute whose words were forgotten, oldest first.
 */
export const sentMessages = (request: typeof Request.Type) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request,
      Result: SentMessage,
      execute: (r) =>
        sql`SELECT provider_message_id, sent_at, COALESCE(sender_text, text) AS text, CASE WHEN erased_at IS NULL THEN 0 ELSE 1 END AS erased
          FROM messages
          WHERE sender = ${r.user} AND sent_at >= ${r.from} AND sent_at < ${r.to}
            AND (COALESCE(sender_text, text) = ${r.text} OR erased_at IS NOT NULL)
          ORDER BY sent_at, provider_message_id`
    })(request))

const RepliesRequest = Schema.Struct({ provider: Schema.String, chat: Schema.String, from: IsoTime, to: IsoTime })

/**
 * The replies the bot sent to a chat in [from, to), as messages (the reply's id, when it was
 * sent, its text): in an export of the chat with the bot they are the bot's lines, not the user's.
 */
export const sentReplies = (request: typeof RepliesRequest.Type) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: RepliesRequest,
      Result: SentMessage,
      execute: (r) =>
        sql`SELECT reply_id AS provider_message_id, sent_at, text, 0 AS erased FROM replies
          WHERE provider = ${r.provider} AND chat = ${r.chat} AND status = 'sent' AND sent_at >= ${r.from} AND sent_at < ${r.to}
          ORDER BY sent_at, reply_id`
    })(request))

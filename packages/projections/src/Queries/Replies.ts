/** Replies as the web pages show them: the bot's side of a conversation, newest first. */
import { SqlClient } from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { Provider, QuestionId, ReplyId } from "@verbatim/domain/Ids"
import { Effect, Option, Schema } from "effect"
import { column, CountRow } from "./Columns.js"

/** A reply to a conversation, with the question it asks (if any). */
export const ConversationReply = Schema.Struct({
  replyId: column(ReplyId, "reply_id"),
  text: Schema.String,
  questionId: column(Schema.NullOr(QuestionId), "question_id")
})
export type ConversationReply = typeof ConversationReply.Type

/** The newest `limit` replies to a conversation (provider and chat), newest first. */
export const conversationReplies = (provider: Provider, chat: string, limit: number) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: Schema.Struct({ provider: Provider, chat: Schema.String, limit: Schema.Number }),
      Result: ConversationReply,
      execute: (r) =>
        sql`SELECT reply_id, text, question_id FROM replies WHERE provider = ${r.provider} AND chat = ${r.chat}
          ORDER BY position DESC LIMIT ${r.limit}`
    })({ provider, chat, limit }))

/** The newest reply in a chat whose id starts with `prefix` (`web:`: the sign-in links `/web` sent), if any. */
export const newestReplyId = (provider: Provider, chat: string, prefix: string) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findOne({
      Request: Schema.Struct({ provider: Provider, chat: Schema.String, prefix: Schema.String }),
      Result: Schema.Struct({ reply_id: ReplyId }),
      execute: (r) =>
        sql`SELECT reply_id FROM replies WHERE provider = ${r.provider} AND chat = ${r.chat} AND reply_id LIKE ${`${r.prefix}%`}
          ORDER BY position DESC LIMIT 1`
    })({ provider, chat, prefix }).pipe(Effect.map(Option.map((row) => row.reply_id))))

/**
 * How many replies in a chat whose id starts with `prefix` were queued at or after `since` (epoch
 * ms), counting at most `limit`: the newest `limit` of them, dated by their events.
 */
export const repliesSince = (provider: Provider, chat: string, prefix: string, since: number, limit: number) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.single({
      Request: Schema.Struct({ provider: Provider, chat: Schema.String, prefix: Schema.String, since: Schema.Number, limit: Schema.Number }),
      Result: CountRow,
      execute: (r) =>
        sql`SELECT COUNT(*) AS n FROM (
            SELECT position FROM replies WHERE provider = ${r.provider} AND chat = ${r.chat} AND reply_id LIKE ${`${r.prefix}%`}
            ORDER BY position DESC LIMIT ${r.limit}
          ) newest JOIN events ON events.position = newest.position WHERE events.recorded_at >= ${r.since}`
    })({ provider, chat, prefix, since, limit }).pipe(Effect.map((row) => row.n)))

/** Replies are found by conversation, newest first. */
export const repliesByChat = Effect.flatMap(SqlClient, (sql) => sql`CREATE INDEX replies_chat ON replies (provider, chat, position)`)

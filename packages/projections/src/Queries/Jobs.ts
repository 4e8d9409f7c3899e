/** The queries of the server's jobs and probes: the outbox's queue, replay's sessions and contacts, queue depths. */
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { PersonId, Provider, ReplyId, SessionId, type UserId } from "@verbatim/domain/Ids"
import { ReplyTemplate } from "@verbatim/domain/ReplyEvents"
import { DateTime, Effect, Option, Schema } from "effect"
import { column, CountRow, Json, Num } from "./Columns.js"
import { unplannedSession } from "./Indexes.js"

/** A reply waiting in the outbox, with the attempts made so far. */
export const QueuedReply = Schema.Struct({
  replyId: column(ReplyId, "reply_id"),
  provider: Provider,
  chat: Schema.String,
  text: Schema.String,
  buttons: Json(Schema.Array(Schema.Struct({ label: Schema.String, data: Schema.String, url: Schema.optionalWith(Schema.String, { exact: true }) }))),
  /** The WhatsApp template to send instead of the text, when there is one. */
  template: Schema.NullOr(Json(ReplyTemplate)),
  attempts: Num
})
export type QueuedReply = typeof QueuedReply.Type

/** A contact of a user as a prompt names it. */
export const KnownContact = Schema.Struct({ id: column(PersonId, "person_id"), name: Schema.String })
export type KnownContact = typeof KnownContact.Type

/** How much work is waiting, for the metrics scrape. */
export interface QueueDepths {
  readonly queuedReplies: number
  readonly openSessions: number
  readonly unplannedSessions: number
}

/** Queued replies in the order they were queued, at most `limit`. */
export const queuedReplies = (limit: number) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: Schema.Number,
      Result: QueuedReply,
      execute: (n) =>
        sql`SELECT reply_id, provider, chat, text, buttons, template, attempts FROM replies
          WHERE status = 'queued' ORDER BY position LIMIT ${n}`
    })(limit))

/** Closed sessions opened at or after `since` (every one when none), in the order they were opened. */
export const closedSessions = (since: Option.Option<DateTime.Utc>) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: Schema.String,
      Result: Schema.Struct({ session_id: SessionId }),
      execute: (from) =>
        sql`SELECT session_id FROM sessions WHERE closed_at IS NOT NULL AND opened_at >= ${from}
          ORDER BY opened_at, session_id`
    })(Option.match(since, { onNone: () => "", onSome: DateTime.formatIso })).pipe(
      Effect.map((rows) => rows.map((r) => r.session_id))
    ))

/** A user's contacts recorded before a log position, by id. */
export const contactsBefore = (user: UserId, position: number) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: Schema.Struct({ user: Schema.String, position: Schema.Number }),
      Result: KnownContact,
      execute: (request) =>
        sql`SELECT person_id, name FROM people WHERE user_id = ${request.user} AND position < ${request.position}
          ORDER BY person_id`
    })({ user, position }))

const count = (query: (sql: SqlClient) => Effect.Effect<ReadonlyArray<unknown>, SqlError>) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.single({ Request: Schema.Void, Result: CountRow, execute: () => query(sql) })(undefined).pipe(
      Effect.map((row) => row.n)
    ))

/** Replies queued, sessions open, and closed sessions without an applied plan. */
export const queueDepths = Effect.all({
  queuedReplies: count((sql) => sql`SELECT COUNT(*) AS n FROM replies WHERE status = 'queued'`),
  openSessions: count((sql) => sql`SELECT COUNT(*) AS n FROM sessions WHERE closed_at IS NULL`),
  unplannedSessions: count((sql) =>
    sql`SELECT COUNT(*) AS n FROM sessions WHERE ${sql.literal(unplannedSession)}`
  )
}).pipe(Effect.map((depths): QueueDepths => depths))

/** Whether the database answers at all. */
export const ping = Effect.flatMap(SqlClient, (sql) => Effect.asVoid(sql`SELECT 1`))

/**
 * Messages of closed sessions no plan has filed yet, all of them or `user`'s, counted up to
 * `atMost` and no further (a page's banner costs the same however many wait), through the
 * indexes of unplanned sessions.
 */
export const awaitingPlan = (user: UserId | undefined, atMost: number) =>
  count((sql) =>
    sql`SELECT COUNT(*) AS n FROM (
        SELECT 1 FROM (
          SELECT session_id FROM sessions WHERE ${sql.literal(unplannedSession)} ${user === undefined ? sql`` : sql`AND user_id = ${user}`}
        ) s JOIN messages m ON m.session_id = s.session_id
        LIMIT ${atMost}
      ) w`
  )

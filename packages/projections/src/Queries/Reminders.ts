/**
 * Reminders as delivery and the pages read them. What is due is read through the partial index
 * on `due_at` of those still scheduled, so finding it costs what is due, not every reminder.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { MessageId, NoteId, PlanId, Provider, ReminderId, SessionId, UserId } from "@verbatim/domain/Ids"
import { ReminderStatus } from "@verbatim/domain/Reminders/Events"
import { Effect, Option, Schema } from "effect"
import { column, Millis, Num } from "./Columns.js"
import { liveReminder } from "./Indexes.js"

/** `asking`: the time is the user's to give (`dueAt` is then when it was asked, `dueLocal` empty). */
export { ReminderStatus }

/** One reminder, with where its session's chat is (the reply goes there) and its message's text now. */
export const ReminderRow = Schema.Struct({
  reminderId: column(ReminderId, "reminder_id"),
  user: column(UserId, "user_id"),
  sessionId: column(SessionId, "session_id"),
  messageId: column(MessageId, "message_id"),
  quote: Schema.String,
  start: column(Num, "quote_start"),
  end: column(Num, "quote_end"),
  noteId: column(Schema.NullOr(NoteId), "note_id"),
  dueAt: column(Millis, "due_at"),
  zone: Schema.String,
  dueLocal: column(Schema.String, "due_local"),
  status: ReminderStatus,
  late: Num.pipe(Schema.transform(Schema.Boolean, { decode: (n) => n === 1, encode: (b) => (b ? 1 : 0) })),
  provider: Provider,
  chat: Schema.String,
  messageText: column(Schema.String, "message_text")
})
export type ReminderRow = typeof ReminderRow.Type

const selectRows = `SELECT r.reminder_id, r.user_id, r.session_id, r.message_id, r.quote, r.quote_start, r.quote_end, r.note_id,
    r.due_at, r.zone, r.due_local, r.status, r.late, s.provider, s.chat, m.text AS message_text
  FROM reminders r JOIN sessions s ON s.session_id = r.session_id JOIN messages m ON m.message_id = r.message_id`

/** Reminders still to deliver whose time has come (`due_at` at or before `now`, epoch ms), soonest first, at most `limit`. */
export const dueReminders = (now: number, limit: number) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: Schema.Struct({ now: Schema.Number, limit: Schema.Number }),
      Result: ReminderRow,
      execute: (r) =>
        sql`${sql.literal(selectRows)} WHERE r.reminder_id IN (
            SELECT reminder_id FROM reminders WHERE status = 'scheduled' AND due_at <= ${r.now} ORDER BY due_at LIMIT ${r.limit}
          ) ORDER BY r.due_at, r.reminder_id`
    })({ now, limit }))

/** When the next reminder still to deliver falls due (epoch ms), if any is. */
export const nextDue = Effect.flatMap(SqlClient, (sql) =>
  SqlSchema.findOne({
    Request: Schema.Void,
    Result: Schema.Struct({ due_at: Num }),
    execute: () => sql`SELECT due_at FROM reminders WHERE status = 'scheduled' ORDER BY due_at LIMIT 1`
  })(undefined).pipe(Effect.map(Option.map((row) => row.due_at))))


/** A user's reminders in the given states, soonest due first, at most `limit`. */
export const remindersOf = (user: UserId, statuses: ReadonlyArray<ReminderStatus>, limit: number) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: Schema.Struct({ user: UserId, statuses: Schema.Array(ReminderStatus), limit: Schema.Number }),
      Result: ReminderRow,
      execute: (r) =>
        sql`${sql.literal(selectRows)} WHERE r.user_id = ${r.user} AND ${sql.in("r.status", r.statuses)}
          ORDER BY r.due_at, r.reminder_id LIMIT ${r.limit}`
    })({ user, statuses, limit }))

/** One reminder, if there is one. */
export const reminder = (reminderId: ReminderId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findOne({
      Request: ReminderId,
      Result: ReminderRow,
      execute: (id) => sql`${sql.literal(selectRows)} WHERE r.reminder_id = ${id}`
    })(reminderId))

/** The reminders of a message, by its id (an edit checks their quotes). */
export const messageReminders = (messageId: MessageId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: MessageId,
      Result: ReminderRow,
      execute: (id) => sql`${sql.literal(selectRows)} WHERE r.message_id = ${id} ORDER BY r.quote_start`
    })(messageId))

/**
 * Reminders held for WhatsApp's window whose user has written since (the window is open again),
 * at most `limit`: the held ones by their partial index, each checked against its user's newest
 * message by the messages' (sender, received_at) index.
 */
export const releasedReminders = (limit: number) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: Schema.Number,
      Result: ReminderRow,
      execute: (n) =>
        sql`${sql.literal(selectRows)} WHERE r.status = 'held' AND EXISTS (
            SELECT 1 FROM messages w WHERE w.sender = r.user_id AND w.received_at > r.held_at
          ) ORDER BY r.due_at, r.reminder_id LIMIT ${n}`
    })(limit))

/** When a user's newest message was received (ISO), if they sent any. */
export const lastHeardFrom = (user: UserId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findOne({
      Request: UserId,
      Result: Schema.Struct({ received_at: Schema.String }),
      execute: (u) => sql`SELECT received_at FROM messages WHERE sender = ${u} ORDER BY received_at DESC LIMIT 1`
    })(user).pipe(Effect.map(Option.map((row) => row.received_at))))

/** The reminders a session's plans set or asked about, in the order they were recorded. */
export const sessionReminders = (sessionId: SessionId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: SessionId,
      Result: ReminderRow.pipe(Schema.extend(Schema.Struct({ planId: column(PlanId, "plan_id") }))),
      execute: (id) => sql`${sql.literal(selectRows.replace("r.note_id,", "r.note_id, r.plan_id,"))} WHERE r.session_id = ${id} ORDER BY r.position`
    })(sessionId))

/**
 * Applied plans whose reminders are still to be taken, oldest first, at most `limit`: those that
 * proposed some, and those that replaced others (their reminders are derived again).
 */
export const plansOwingReminders = (limit: number) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: Schema.Number,
      Result: Schema.Struct({ planId: column(PlanId, "plan_id"), sessionId: column(SessionId, "session_id") }),
      execute: (n) =>
        sql`SELECT plan_id, session_id FROM plans WHERE (reminders > 0 OR supersedes IS NOT NULL) AND reminders_taken = 0 AND applied = 1
          ORDER BY position LIMIT ${n}`
    })(limit))

/** The time zone a user set last, if they set one. */
export const userZone = (user: UserId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findOne({
      Request: UserId,
      Result: Schema.Struct({ zone: Schema.String }),
      execute: (u) => sql`SELECT zone FROM user_zones WHERE user_id = ${u}`
    })(user).pipe(Effect.map(Option.map((row) => row.zone))))

/**
 * Reminders still to deliver or just delivered whose words their message no longer holds (an edit
 * took them away), at most `limit`.
 */
export const remindersWithoutTheirWords = (limit: number) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: Schema.Number,
      Result: ReminderRow,
      execute: (n) =>
        sql`${sql.literal(selectRows)} WHERE ${sql.literal(liveReminder)}
          AND ${sql.literal(sql.onDialectOrElse({ pg: () => "strpos(m.text, r.quote) = 0", orElse: () => "instr(m.text, r.quote) = 0" }))}
          ORDER BY r.position LIMIT ${n}`
    })(limit))

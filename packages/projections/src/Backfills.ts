/**
 * Columns a migration adds and fills from the log, each filled exactly as its projection writes
 * it, so a store migrated from before reads as one rebuilt from its log.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { quoteKey } from "@verbatim/domain/Ask/Decide"
import { Effect } from "effect"

/**
 * Each message's send time, filled from its `MessageReceived` event in the log (the receipt time
 * when the event has none), as the messages projection writes it: a store migrated from before
 * reads exactly as one rebuilt from its log.
 */
export const fillSentAt = Effect.flatMap(SqlClient, (sql) => {
  const received = sql.onDialectOrElse({
    pg: () =>
      sql`SELECT payload::jsonb #>> '{message,id}' AS message_id, payload::jsonb #>> '{message,sentAt}' AS sent_at
        FROM events WHERE type = 'MessageReceived'`,
    orElse: () =>
      sql`SELECT json_extract(payload, '$.message.id') AS message_id, json_extract(payload, '$.message.sentAt') AS sent_at
        FROM events WHERE type = 'MessageReceived'`
  })
  return Effect.all([
    sql`UPDATE messages SET sent_at = received.sent_at FROM (${received}) AS received
      WHERE messages.message_id = received.message_id AND received.sent_at IS NOT NULL`,
    sql`UPDATE messages SET sent_at = received_at WHERE sent_at IS NULL`
  ], { discard: true })
})

/**
 * What each plan's reminders came to (see `reminderOutcomesDdl`), filled from the `RemindersTaken`
 * events in the log as the plans projection writes it: a store migrated from before reads exactly
 * as one rebuilt from its log.
 */
export const fillReminderOutcomes = Effect.flatMap(SqlClient, (sql) => {
  const taken = sql.onDialectOrElse({
    pg: () => sql`SELECT payload::json ->> 'planId' AS plan_id, payload::json -> 'reminders' AS outcomes FROM events WHERE type = 'RemindersTaken'`,
    orElse: () => sql`SELECT json_extract(payload, '$.planId') AS plan_id, json_extract(payload, '$.reminders') AS outcomes FROM events WHERE type = 'RemindersTaken'`
  })
  return Effect.flatMap(taken, (rows) =>
    Effect.forEach(rows, (row) =>
      sql`UPDATE plans SET reminder_outcomes = ${typeof row["outcomes"] === "string" ? row["outcomes"] : JSON.stringify(row["outcomes"])}
        WHERE plan_id = ${String(row["plan_id"])}`, { discard: true }))
})

/** A confirmed quote as read from the log (PostgreSQL's `->>` gives its numbers as text). */
interface Confirmation {
  readonly ask_id: string
  readonly message_id: string
  readonly start: number | string
  readonly end: number | string
}

/**
 * The quotes each asker confirmed (see `confirmedQuotesDdl`), filled from the `AskQuoteConfirmed`
 * events in the log in their order, as the asks projection writes them: a store migrated from
 * before reads exactly as one rebuilt from its log.
 */
export const fillConfirmedQuotes = Effect.flatMap(SqlClient, (sql) => {
  const confirmations = sql.onDialectOrElse({
    pg: () =>
      sql<Confirmation>`SELECT payload::jsonb ->> 'askId' AS ask_id,
        payload::jsonb ->> 'messageId' AS message_id, payload::jsonb ->> 'start' AS start, payload::jsonb ->> 'end' AS "end"
        FROM events WHERE type = 'AskQuoteConfirmed' ORDER BY position`,
    orElse: () =>
      sql<Confirmation>`SELECT json_extract(payload, '$.askId') AS ask_id,
        json_extract(payload, '$.messageId') AS message_id, json_extract(payload, '$.start') AS start, json_extract(payload, '$.end') AS "end"
        FROM events WHERE type = 'AskQuoteConfirmed' ORDER BY position`
  })
  return Effect.flatMap(confirmations, (rows) => {
    const byAsk = new Map<string, Array<string>>()
    for (const row of rows) {
      const keys = byAsk.get(row.ask_id) ?? []
      keys.push(quoteKey({ messageId: row.message_id, start: Number(row.start), end: Number(row.end) }))
      byAsk.set(row.ask_id, keys)
    }
    return Effect.forEach(byAsk, ([askId, keys]) => sql`UPDATE asks SET confirmed = ${JSON.stringify(keys)} WHERE ask_id = ${askId}`, { discard: true })
  })
})

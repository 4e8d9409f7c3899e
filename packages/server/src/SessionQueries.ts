/** Read-model lookups the session lifecycle needs, on either SQL backend. */
import { SqlClient } from "@effect/sql/SqlClient"
import { messageIdOf, type Provider, type SessionId, type UserId } from "@verbatim/domain/Ids"
import { Effect, Option } from "effect"
import { sessionStreamPrefix } from "./Streams.js"

/** The conversation a session belongs to: one sender in one chat on one provider. */
export interface Conversation {
  readonly user: UserId
  readonly provider: Provider
  readonly chat: string
}

/** A conversation's open session as a capture needs it: the next seq and the stream version to append at. */
export interface OpenSession {
  readonly sessionId: SessionId
  readonly lastSeq: number
  readonly version: number
}

/**
 * In one statement (one snapshot): the conversation's open session with its last seq and stream
 * version, and how many sessions it has had.
 */
export const conversationState = (conversation: Conversation) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* sql<{ session_id: string; closed_at: string | null; last_seq: number | string | null; version: number | string | null }>`
      SELECT s.session_id, s.closed_at,
        CASE WHEN s.closed_at IS NULL THEN (SELECT MAX(m.seq) FROM messages m WHERE m.session_id = s.session_id) END AS last_seq,
        CASE WHEN s.closed_at IS NULL THEN (SELECT MAX(e.version) FROM events e WHERE e.stream = ${sessionStreamPrefix} || s.session_id) END AS version
      FROM sessions s
      WHERE s.user_id = ${conversation.user} AND s.provider = ${conversation.provider} AND s.chat = ${conversation.chat}`
    const open = rows.find((row) => row.closed_at === null)
    return {
      open: Option.map(Option.fromNullable(open), (row): OpenSession => ({
        sessionId: row.session_id as SessionId,
        lastSeq: Number(row.last_seq ?? 0),
        version: Number(row.version ?? 0)
      })),
      count: rows.length
    }
  })

/** The open session of a conversation and how many sessions it has had. */
export const openSession = (conversation: Conversation) =>
  Effect.map(conversationState(conversation), ({ count, open }) => ({ open: Option.map(open, (o) => o.sessionId), count }))

/** A captured message found by its provider identity. */
export interface MessageRef {
  readonly messageId: string
  readonly sessionId: SessionId
  readonly sender: string
  readonly text: string
  /** ISO time of the newest edit recorded, or null. */
  readonly editedAt: string | null
}

export const messageByProviderId = (provider: Provider, providerMessageId: string) =>
  Effect.flatMap(SqlClient, (sql) =>
    Effect.map(
      sql<{ message_id: string; session_id: string; sender: string; text: string; edited_at: string | null }>`
        SELECT message_id, session_id, sender, text, edited_at FROM messages
        WHERE message_id = ${messageIdOf(provider, providerMessageId)}`,
      (rows) =>
        Option.map(Option.fromNullable(rows[0]), (row): MessageRef => ({
          messageId: row.message_id,
          sessionId: row.session_id as SessionId,
          sender: row.sender,
          text: row.text,
          editedAt: row.edited_at
        }))
    ))

/** Open sessions whose last message (by seq, the order of capture) arrived at or before `cutoff` (ISO time). */
export const idleSessions = (cutoff: string) =>
  Effect.flatMap(SqlClient, (sql) =>
    Effect.map(
      sql<{ session_id: string }>`
        SELECT s.session_id FROM sessions s
        WHERE s.closed_at IS NULL
          AND (SELECT m.received_at FROM messages m WHERE m.session_id = s.session_id ORDER BY m.seq DESC LIMIT 1) <= ${cutoff}
        ORDER BY s.session_id`,
      (rows) => rows.map((row) => row.session_id as SessionId)
    ))

/** Closed sessions with no applied plan and no recorded failure: planning is still owed. */
export const unplannedSessions = Effect.flatMap(SqlClient, (sql) =>
  Effect.map(
    sql<{ session_id: string }>`
      SELECT s.session_id FROM sessions s
      WHERE s.closed_at IS NOT NULL AND s.last_plan_failure IS NULL
        AND NOT EXISTS (SELECT 1 FROM plans p WHERE p.session_id = s.session_id AND p.applied = 1)
      ORDER BY s.session_id`,
    (rows) => rows.map((row) => row.session_id as SessionId)
  ))

/** A user's sessions whose last planning attempt failed: the next successful plan for that user retries them. */
export const failedSessions = (user: string) =>
  Effect.flatMap(SqlClient, (sql) =>
    Effect.map(
      sql<{ session_id: string }>`
        SELECT session_id FROM sessions WHERE user_id = ${user} AND last_plan_failure IS NOT NULL ORDER BY session_id`,
      (rows) => rows.map((row) => row.session_id as SessionId)
    ))

/** The user a session belongs to. */
export const sessionUser = (sessionId: SessionId) =>
  Effect.flatMap(SqlClient, (sql) =>
    Effect.map(
      sql<{ user_id: string }>`SELECT user_id FROM sessions WHERE session_id = ${sessionId}`,
      (rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.user_id)
    ))

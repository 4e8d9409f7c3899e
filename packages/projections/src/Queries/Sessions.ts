/** Read-model lookups the session lifecycle needs: which stream a command goes to, and which sessions are owed work. */
import { SqlClient } from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { MessageId, NoteId, PlanId, Provider, QuestionId, SessionId, UserId } from "@verbatim/domain/Ids"
import { Effect, Option, Schema } from "effect"
import { Num } from "./Columns.js"
import { unplannedSession } from "./Indexes.js"

/** The conversation a session belongs to: one sender in one chat on one provider. */
export const Conversation = Schema.Struct({ user: UserId, provider: Provider, chat: Schema.String })
export type Conversation = typeof Conversation.Type

/** A conversation's open session, if any, and how many sessions it has had. */
export interface ConversationSessions {
  readonly open: Option.Option<SessionId>
  readonly count: number
}

/** A count or id as either driver returns it (PostgreSQL returns BIGINT and COUNT as text). */
const Count = Schema.Union(Schema.Number, Schema.NumberFromString)
const SessionRow = Schema.Struct({ session_id: SessionId })
const sessionIds = (rows: ReadonlyArray<typeof SessionRow.Type>) => rows.map((r) => r.session_id)

export const conversationSessions = (conversation: Conversation) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.single({
      Request: Conversation,
      Result: Schema.Struct({ open: Schema.NullOr(SessionId), n: Count }),
      execute: (c) =>
        sql`SELECT MAX(CASE WHEN closed_at IS NULL THEN session_id END) AS open, COUNT(*) AS n FROM sessions
          WHERE user_id = ${c.user} AND provider = ${c.provider} AND chat = ${c.chat}`
    })(conversation).pipe(
      Effect.map((row): ConversationSessions => ({ open: Option.fromNullable(row.open), count: row.n }))
    ))

/** The session a captured message belongs to. */
export const messageSession = (messageId: MessageId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findOne({
      Request: MessageId,
      Result: SessionRow,
      execute: (id) => sql`SELECT session_id FROM messages WHERE message_id = ${id}`
    })(messageId).pipe(Effect.map(Option.map((r) => r.session_id))))

/** The session a question was parked in. */
export const questionSession = (questionId: QuestionId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findOne({
      Request: QuestionId,
      Result: SessionRow,
      execute: (id) => sql`SELECT session_id FROM questions WHERE question_id = ${id}`
    })(questionId).pipe(Effect.map(Option.map((r) => r.session_id))))

/** The session a note was filed in. */
export const noteSession = (noteId: NoteId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findOne({
      Request: NoteId,
      Result: SessionRow,
      execute: (id) => sql`SELECT session_id FROM notes WHERE note_id = ${id}`
    })(noteId).pipe(Effect.map(Option.map((r) => r.session_id))))

/**
 * Open sessions whose last message (by seq, the order of capture) arrived at or before `cutoff`
 * (ISO time); those captured on the web pages at or before `webCutoff`.
 */
export const idleSessions = (cutoff: string, webCutoff: string) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: Schema.Struct({ at: Schema.String, webAt: Schema.String }),
      Result: SessionRow,
      execute: ({ at, webAt }) =>
        sql`SELECT s.session_id FROM sessions s
          WHERE s.closed_at IS NULL
            AND (SELECT m.received_at FROM messages m WHERE m.session_id = s.session_id ORDER BY m.seq DESC LIMIT 1)
              <= CASE WHEN s.provider = 'web' THEN ${webAt} ELSE ${at} END
          ORDER BY s.session_id`
    })({ at: cutoff, webAt: webCutoff }).pipe(Effect.map(sessionIds)))

/** Closed sessions with no applied plan and no recorded failure: planning is still owed. */
export const unplannedSessions = Effect.flatMap(SqlClient, (sql) =>
  SqlSchema.findAll({
    Request: Schema.Void,
    Result: SessionRow,
    execute: () =>
      sql`SELECT session_id FROM sessions WHERE ${sql.literal(unplannedSession)} AND last_plan_failure IS NULL
        ORDER BY session_id`
  })(undefined).pipe(Effect.map(sessionIds)))

/** A user's sessions whose last planning attempt failed: the next successful plan for that user retries them. */
export const failedSessions = (user: UserId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: UserId,
      Result: SessionRow,
      execute: (u) => sql`SELECT session_id FROM sessions WHERE user_id = ${u} AND last_plan_failure IS NOT NULL ORDER BY session_id`
    })(user).pipe(Effect.map(sessionIds)))

/** The user a session belongs to. */
export const sessionUser = (sessionId: SessionId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findOne({
      Request: SessionId,
      Result: Schema.Struct({ user_id: UserId }),
      execute: (id) => sql`SELECT user_id FROM sessions WHERE session_id = ${id}`
    })(sessionId).pipe(Effect.map(Option.map((r) => r.user_id))))

/** A plan of a session as its page lists it. */
export interface SessionPlan {
  readonly planId: PlanId
  readonly promptVersion: string
  readonly model: string
  readonly fromSeq: number
  readonly toSeq: number
  readonly inputTokens: number
  readonly outputTokens: number
  /** The plan a promoted replay put in this one's place, when one did. */
  readonly supersededBy: PlanId | null
}

const PlanRow = Schema.Struct({
  plan_id: PlanId,
  prompt_version: Schema.String,
  model: Schema.String,
  from_seq: Num,
  to_seq: Num,
  input_tokens: Num,
  output_tokens: Num,
  superseded_by: Schema.NullOr(PlanId)
})

/** The plans recorded for a session, in the order they were. */
export const sessionPlans = (sessionId: SessionId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: SessionId,
      Result: PlanRow,
      execute: (id) =>
        sql`SELECT plan_id, prompt_version, model, from_seq, to_seq, input_tokens, output_tokens, superseded_by
      FROM plans WHERE session_id = ${id} ORDER BY position`
    })(sessionId).pipe(
      Effect.map((rows) =>
        rows.map((r): SessionPlan => ({
          planId: r.plan_id,
          promptVersion: r.prompt_version,
          model: r.model,
          fromSeq: r.from_seq,
          toSeq: r.to_seq,
          inputTokens: r.input_tokens,
          outputTokens: r.output_tokens,
          supersededBy: r.superseded_by
        }))
      )
    ))

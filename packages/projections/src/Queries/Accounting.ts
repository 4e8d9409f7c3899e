/** The accounting of a session: where every message went, so nothing captured is ever silently lost. */
import { SqlClient } from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { Disposition, SessionAccounting } from "@verbatim/domain/ApiResponses"
import { AttachmentKind } from "@verbatim/domain/Attachment"
import { readerOf } from "@verbatim/domain/Media"
import { MessageId, NoteId, PlanId, QuestionId, ReminderId, SessionId, UserId } from "@verbatim/domain/Ids"
import { ReminderStatus, TakenReminder } from "@verbatim/domain/Reminders/Events"
import { Effect, Option, Schema } from "effect"
import { Num } from "./Columns.js"

/** Exactly one place a message is in now; the `dispositions` list also shows directives cut from it. */
export type PrimaryDisposition =
  | Disposition
  | { readonly _tag: "AwaitingPlan" }
  | { readonly _tag: "AwaitingTranscription" }

/** The API's accounting, with each message's single current disposition added. */
export interface SessionAccountingView extends SessionAccounting {
  readonly messages: ReadonlyArray<SessionAccounting["messages"][number] & { readonly disposition: PrimaryDisposition }>
}

/** Not placed yet: waiting for its attachments' text while some is still to come, for a plan otherwise. */
const primaryOf = (awaitingMedia: boolean, dispositions: ReadonlyArray<Disposition>): PrimaryDisposition =>
  dispositions.find((d) => d._tag === "InNote" || d._tag === "Discarded" || d._tag === "Erased") ??
    dispositions.find((d) => d._tag === "InQuestion") ??
    dispositions.find((d) => d._tag === "Instruction" && d.kind === "message") ??
    (awaitingMedia ? { _tag: "AwaitingTranscription" } : { _tag: "AwaitingPlan" })

const SessionRow = Schema.Struct({
  user_id: UserId,
  closed_at: Schema.NullOr(Schema.String),
  last_plan_failure: Schema.NullOr(Schema.String),
  applied: Num
})
const MessageRow = Schema.Struct({ message_id: MessageId, seq: Num, erased_at: Schema.NullOr(Schema.String) })
const MediaRow = Schema.Struct({ message_id: MessageId, kind: AttachmentKind })
const InNoteRow = Schema.Struct({ message_id: MessageId, note_id: NoteId, discarded: Num })
const InQuestionRow = Schema.Struct({ message_id: MessageId, question_id: QuestionId })
const InstructionRow = Schema.Struct({
  message_id: MessageId,
  kind: Schema.Literal("message", "directive"),
  text: Schema.String
})

/** The accounting of one session, or none when no such session exists. */
export const sessionAccounting = Effect.fn("Notebook.sessionAccounting")(function*(sessionId: SessionId) {
  const sql = yield* SqlClient
  const found = yield* SqlSchema.findOne({
    Request: SessionId,
    Result: SessionRow,
    execute: (id) =>
      sql`SELECT s.user_id, s.closed_at, s.last_plan_failure,
          (SELECT COUNT(*) FROM plans p WHERE p.session_id = s.session_id AND p.applied = 1) AS applied
        FROM sessions s WHERE s.session_id = ${id}`
  })(sessionId)
  if (Option.isNone(found)) return Option.none<SessionAccountingView>()
  const session = found.value
  const messages = yield* SqlSchema.findAll({
    Request: SessionId,
    Result: MessageRow,
    execute: (id) => sql`SELECT message_id, seq, erased_at FROM messages WHERE session_id = ${id} ORDER BY seq`
  })(sessionId)
  // Attachments a reader takes whose text has neither landed nor failed for good (see `Media.isAwaited`).
  const awaited = yield* SqlSchema.findAll({
    Request: SessionId,
    Result: MediaRow,
    execute: (id) =>
      sql`SELECT message_id, kind FROM message_media
        WHERE session_id = ${id} AND derived_text IS NULL AND (failure_permanent IS NULL OR failure_permanent = 0)`
  })(sessionId)
  const awaiting = new Set(awaited.filter((r) => readerOf(r.kind) !== null).map((r) => r.message_id))
  const inNotes = yield* SqlSchema.findAll({
    Request: SessionId,
    Result: InNoteRow,
    execute: (id) =>
      sql`SELECT s.message_id, s.note_id, CASE WHEN n.discarded_at IS NULL THEN 0 ELSE 1 END AS discarded
        FROM note_sources s JOIN messages m ON m.message_id = s.message_id JOIN notes n ON n.note_id = s.note_id
        WHERE m.session_id = ${id} ORDER BY s.note_id`
  })(sessionId)
  const inQuestions = yield* SqlSchema.findAll({
    Request: SessionId,
    Result: InQuestionRow,
    execute: (id) =>
      sql`SELECT qm.message_id, qm.question_id
        FROM question_messages qm JOIN questions q ON q.question_id = qm.question_id
        WHERE q.session_id = ${id} AND q.status = 'open' ORDER BY qm.question_id`
  })(sessionId)
  const instructions = yield* SqlSchema.findAll({
    Request: SessionId,
    Result: InstructionRow,
    execute: (id) => sql`SELECT message_id, kind, text FROM instructions WHERE session_id = ${id} ORDER BY position`
  })(sessionId)
  const dispositionsOf = (messageId: string): Array<Disposition> => [
    ...inNotes.filter((r) => r.message_id === messageId).map((r) => ({ _tag: r.discarded === 1 ? "Discarded" as const : "InNote" as const, noteId: r.note_id })),
    ...inQuestions.filter((r) => r.message_id === messageId).map((r) => ({
      _tag: "InQuestion" as const,
      questionId: r.question_id
    })),
    ...instructions.filter((r) => r.message_id === messageId).map((r) => ({
      _tag: "Instruction" as const,
      kind: r.kind,
      text: r.text
    }))
  ]
  const reminders = yield* reminderOutcomes(sessionId)
  const status = session.closed_at === null
    ? "open"
    : session.applied > 0
    ? "planned"
    : session.last_plan_failure !== null
    ? "failed"
    : "closed"
  return Option.some<SessionAccountingView>({
    sessionId: SessionId.make(sessionId),
    user: session.user_id,
    status,
    messages: messages.map((m) => {
      const dispositions = m.erased_at === null ? dispositionsOf(m.message_id) : [{ _tag: "Erased" as const, erasedAt: m.erased_at }]
      return {
        messageId: m.message_id,
        seq: m.seq,
        dispositions,
        disposition: primaryOf(awaiting.has(m.message_id), dispositions)
      }
    }),
    reminders
  })
})

const OutcomeRow = Schema.Struct({ plan_id: PlanId, outcomes: Schema.parseJson(Schema.Array(TakenReminder)) })
const StatusRow = Schema.Struct({ reminder_id: ReminderId, status: ReminderStatus })

/** What each reminder the session's live plans proposed came to, in plan order, with each reminder's state now. */
const reminderOutcomes = Effect.fn("Notebook.reminderOutcomes")(function*(sessionId: SessionId) {
  const sql = yield* SqlClient
  const plans = yield* SqlSchema.findAll({
    Request: SessionId,
    Result: OutcomeRow,
    execute: (id) =>
      sql`SELECT plan_id, reminder_outcomes AS outcomes FROM plans
        WHERE session_id = ${id} AND applied = 1 AND reminder_outcomes IS NOT NULL ORDER BY position`
  })(sessionId)
  const statuses = yield* SqlSchema.findAll({
    Request: SessionId,
    Result: StatusRow,
    execute: (id) => sql`SELECT reminder_id, status FROM reminders WHERE session_id = ${id}`
  })(sessionId)
  const statusOf = new Map<ReminderId, ReminderStatus>(statuses.map((r) => [r.reminder_id, r.status]))
  return plans.flatMap((plan) =>
    plan.outcomes.map((o) => ({
      planId: plan.plan_id,
      seq: o.seq,
      quote: o.quote,
      outcome: o.outcome,
      detail: o.detail,
      reminderId: o.reminderId,
      status: o.reminderId === null ? null : statusOf.get(o.reminderId) ?? null
    }))
  )
})

/**
 * Applies recorded events to the read-model tables. Every write is keyed by an id or a log
 * position and sets absolute values, so applying the same events twice changes nothing, and
 * nothing reads the clock, so a replay writes the same bytes as the live path did.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { DateTime, Effect } from "effect"
import type { RecordedEvent } from "../EventStore.js"
import { StoreError } from "../EventStore.js"
import { recordNote, rederiveNotesOf } from "./Notes.js"

const iso = DateTime.formatIso

type MessageReceived = Extract<RecordedEvent["event"], { readonly _tag: "MessageReceived" }>

/** Messages are most of the log, so a run of them is one multi-row insert (a rebuild's hot path). */
const insertMessages = (events: ReadonlyArray<MessageReceived>) =>
  Effect.flatMap(SqlClient, (sql) =>
    sql`INSERT INTO messages ${
      sql.insert(events.map(({ message: m }) => ({
        message_id: m.id,
        session_id: m.sessionId,
        seq: m.seq,
        provider: m.provider,
        provider_message_id: m.providerMessageId,
        sender: m.sender,
        chat: m.chat,
        kind: m.kind,
        text: m.text,
        forwarded_from: m.forwardedFrom,
        reply_to: m.replyTo,
        received_at: iso(m.receivedAt),
        edited_at: null,
        revisions: 1
      })))
    } ON CONFLICT DO NOTHING`)

/** Rows per multi-row insert: 14 parameters each stays under every driver's parameter limit. */
const messageBatch = 500

/**
 * A plan superseded by a promoted replay stops counting: its notes, open questions and
 * instructions leave the read model (the events stay in the log, and the audit of the new plan).
 */
const retire = (planId: string) =>
  Effect.flatMap(SqlClient, (sql) =>
    Effect.all([
      sql`DELETE FROM note_directives WHERE note_id IN (SELECT note_id FROM notes WHERE plan_id = ${planId})`,
      sql`DELETE FROM note_sources WHERE note_id IN (SELECT note_id FROM notes WHERE plan_id = ${planId})`,
      sql`DELETE FROM notes WHERE plan_id = ${planId}`,
      sql`UPDATE questions SET status = 'withdrawn' WHERE plan_id = ${planId} AND status = 'open'`,
      sql`DELETE FROM instructions WHERE plan_id = ${planId}`,
      sql`UPDATE plans SET applied = 0 WHERE plan_id = ${planId}`
    ], { discard: true }))

const applyOne = ({ event, position }: RecordedEvent) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    switch (event._tag) {
      case "SessionOpened":
        return yield* sql`INSERT INTO sessions ${
          sql.insert({
            session_id: event.sessionId,
            user_id: event.user,
            provider: event.provider,
            chat: event.chat,
            opened_at: iso(event.openedAt),
            closed_at: null,
            close_reason: null,
            message_count: null,
            last_plan_failure: null
          })
        } ON CONFLICT DO NOTHING`
      case "MessageReceived":
        return yield* insertMessages([event])
      case "MessageEdited": {
        const inserted = yield* sql`INSERT INTO message_edits (message_id, position, previous_text, text, edited_at)
          SELECT message_id, ${position}, text, ${event.text}, ${iso(event.editedAt)} FROM messages
          WHERE message_id = ${event.messageId}
          ON CONFLICT DO NOTHING RETURNING position`
        if (inserted.length === 0) return
        yield* sql`UPDATE messages SET text = ${event.text}, edited_at = ${iso(event.editedAt)},
          revisions = 1 + (SELECT COUNT(*) FROM message_edits e WHERE e.message_id = ${event.messageId})
          WHERE message_id = ${event.messageId}`
        return yield* rederiveNotesOf(event.messageId)
      }
      case "SessionClosed":
        return yield* sql`UPDATE sessions SET closed_at = ${iso(event.closedAt)}, close_reason = ${event.reason},
          message_count = ${event.messageCount} WHERE session_id = ${event.sessionId}`
      case "PlanProduced":
        yield* sql`INSERT INTO plans ${
          sql.insert({
            plan_id: event.planId,
            session_id: event.sessionId,
            prompt_version: event.promptVersion,
            prompt_hash: event.promptHash,
            model: event.model,
            input_tokens: event.usage.inputTokens,
            output_tokens: event.usage.outputTokens,
            cache_read_tokens: event.usage.cacheReadTokens,
            cache_write_tokens: event.usage.cacheWriteTokens,
            from_seq: event.chunk.fromSeq,
            to_seq: event.chunk.toSeq,
            supersedes: event.supersedes,
            applied: 0,
            warnings: null,
            position
          })
        } ON CONFLICT DO NOTHING`
        if (event.supersedes !== null) yield* retire(event.supersedes)
        return yield* sql`UPDATE sessions SET last_plan_failure = NULL WHERE session_id = ${event.sessionId}`
      case "PlanFailed":
        return yield* sql`UPDATE sessions SET last_plan_failure = ${event.reason} WHERE session_id = ${event.sessionId}`
      case "NoteRecorded":
        return yield* recordNote(event, position)
      case "QuestionParked":
        yield* sql`INSERT INTO questions ${
          sql.insert({
            question_id: event.questionId,
            session_id: event.sessionId,
            user_id: event.user,
            plan_id: event.planId,
            reason: event.reason,
            candidates: JSON.stringify(event.candidates),
            status: "open",
            answer: null,
            answered_at: null,
            position
          })
        } ON CONFLICT DO NOTHING`
        for (const source of event.sources) {
          yield* sql`INSERT INTO question_messages ${
            sql.insert({ question_id: event.questionId, message_id: source.messageId, seq: source.seq })
          } ON CONFLICT DO NOTHING`
        }
        return
      case "QuestionAnswered":
        return yield* sql`UPDATE questions SET status = 'answered', answer = ${JSON.stringify(event.answer)},
          answered_at = ${iso(event.answeredAt)} WHERE question_id = ${event.questionId}`
      case "QuestionWithdrawn":
        return yield* sql`UPDATE questions SET status = 'withdrawn' WHERE question_id = ${event.questionId}`
      case "InstructionRecorded":
        return yield* sql`INSERT INTO instructions ${
          sql.insert({
            position,
            session_id: event.sessionId,
            plan_id: event.planId,
            message_id: event.messageId,
            seq: event.seq,
            kind: event.kind,
            text: event.text
          })
        } ON CONFLICT DO NOTHING`
      case "PlanApplied":
        return yield* sql`UPDATE plans SET applied = 1, warnings = ${JSON.stringify(event.warnings)}
          WHERE plan_id = ${event.planId}`
      case "PersonAdded":
        return yield* sql`INSERT INTO people ${
          sql.insert({ person_id: event.personId, user_id: event.user, name: event.name, position })
        } ON CONFLICT DO NOTHING`
      case "ReplyQueued":
        return yield* sql`INSERT INTO replies ${
          sql.insert({
            reply_id: event.replyId,
            user_id: event.user,
            provider: event.provider,
            chat: event.chat,
            text: event.text,
            buttons: JSON.stringify(event.buttons),
            question_id: event.questionId,
            status: "queued",
            attempts: 0,
            provider_message_id: null,
            sent_at: null,
            last_error: null,
            position
          })
        } ON CONFLICT DO NOTHING`
      case "ReplySent":
        return yield* sql`UPDATE replies SET status = 'sent', provider_message_id = ${event.providerMessageId},
          sent_at = ${iso(event.sentAt)} WHERE reply_id = ${event.replyId}`
      case "ReplyFailed":
        return yield* sql`UPDATE replies SET status = ${event.final ? "failed" : "queued"}, attempts = ${event.attempt},
          last_error = ${event.detail} WHERE reply_id = ${event.replyId} AND status <> 'sent'`
    }
  })

/** Apply events in order to the read models (inline on append, or during a rebuild). */
export const apply = (events: ReadonlyArray<RecordedEvent>): Effect.Effect<void, StoreError, SqlClient> =>
  Effect.gen(function*() {
    let run: Array<MessageReceived> = []
    for (const recorded of events) {
      if (recorded.event._tag === "MessageReceived") {
        run.push(recorded.event)
        if (run.length < messageBatch) continue
      }
      if (run.length > 0) {
        yield* insertMessages(run)
        run = []
      }
      if (recorded.event._tag !== "MessageReceived") yield* applyOne(recorded)
    }
    if (run.length > 0) yield* insertMessages(run)
  }).pipe(
    Effect.catchTag("SqlError", (cause) => Effect.fail(new StoreError({ reason: "sql", message: String(cause), cause })))
  )

/**
 * Applies recorded events to the read-model tables as row changes: the rows a batch names are
 * loaded, each event changes them in memory, and the batch is written back with a few multi-row
 * statements. The live path applies each append as a batch and a rebuild each page, through this
 * one function. Every change is keyed by an id or a log position and sets absolute values, so
 * applying the same events twice changes nothing, and nothing reads the clock, so a replay writes
 * the same bytes as the live path did.
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import { DateTime, Effect } from "effect"
import type { RecordedEvent } from "../EventStore.js"
import { StoreError } from "../EventStore.js"
import { load } from "./Load.js"
import { deriveBody, recordNote, refuseDuplicate } from "./Notes.js"
import { Batch } from "./Rows.js"
import { isRetired, retire } from "./Supersede.js"

const iso = DateTime.formatIso

/** What the projector reads of a recorded event. */
export type Projected = Pick<RecordedEvent, "event" | "position">

/** Change a row if it exists (an `UPDATE ... WHERE key = ...`). */
const patch = (batch: Batch, table: Parameters<Batch["get"]>[0], key: unknown, changes: Record<string, unknown>) => {
  const row = batch.get(table, key)
  if (row) batch.update(table, row, changes)
}

/** One event's row changes; a refused unique source is returned as the error. */
const evolve = (batch: Batch, { event, position }: Projected): StoreError | void => {
  switch (event._tag) {
    case "SessionOpened":
      if (!batch.has("sessions", event.sessionId)) {
        batch.put("sessions", {
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
      }
      return
    case "MessageReceived": {
      const m = event.message
      if (!batch.has("messages", m.id)) {
        batch.put("messages", {
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
        })
      }
      return
    }
    case "MessageEdited": {
      const message = batch.get("messages", event.messageId)
      if (!message || batch.has("message_edits", event.messageId, position)) return
      const editedAt = iso(event.editedAt)
      batch.put("message_edits", { message_id: event.messageId, position, previous_text: message["text"], text: event.text, edited_at: editedAt })
      batch.update("messages", message, { text: event.text, edited_at: editedAt, revisions: Number(message["revisions"]) + 1 })
      const source = batch.get("note_sources", event.messageId)
      if (source) deriveBody(batch, source["note_id"] as string)
      // A message filed whole as an instruction reads as it now does, as a note's body would.
      for (const instruction of batch.where("instructions", "message_id", event.messageId)) {
        if (instruction["kind"] === "message") batch.update("instructions", instruction, { text: event.text })
      }
      return
    }
    case "SessionClosed":
      return patch(batch, "sessions", event.sessionId, {
        closed_at: iso(event.closedAt),
        close_reason: event.reason,
        message_count: event.messageCount
      })
    case "PlanProduced":
      if (!batch.has("plans", event.planId)) {
        batch.put("plans", {
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
          // The first plan it replaced; each replaced plan's `superseded_by` names this one.
          supersedes: event.supersedes[0] ?? null,
          applied: 0,
          warnings: null,
          position,
          superseded_by: null
        })
      }
      for (const superseded of event.supersedes) retire(batch, superseded, event.planId)
      return patch(batch, "sessions", event.sessionId, { last_plan_failure: null })
    case "PlanFailed":
      return patch(batch, "sessions", event.sessionId, { last_plan_failure: event.reason })
    case "NoteRecorded":
      return isRetired(batch, event.planId) ? undefined : recordNote(batch, event, position)
    case "QuestionParked":
      if (isRetired(batch, event.planId)) return
      if (!batch.has("questions", event.questionId)) {
        batch.put("questions", {
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
      }
      for (const source of event.sources) {
        if (!batch.has("question_messages", event.questionId, source.messageId)) {
          batch.put("question_messages", { question_id: event.questionId, message_id: source.messageId, seq: source.seq })
        }
      }
      return
    case "QuestionAnswered":
      return patch(batch, "questions", event.questionId, {
        status: "answered",
        answer: JSON.stringify(event.answer),
        answered_at: iso(event.answeredAt)
      })
    case "QuestionWithdrawn":
      return patch(batch, "questions", event.questionId, { status: "withdrawn" })
    case "InstructionRecorded":
      if (!isRetired(batch, event.planId) && !batch.has("instructions", position)) {
        batch.put("instructions", {
          position,
          session_id: event.sessionId,
          plan_id: event.planId,
          message_id: event.messageId,
          seq: event.seq,
          kind: event.kind,
          // A whole message reads as it does now: it may have been edited while it was planned.
          text: event.kind === "message" ? (batch.get("messages", event.messageId)?.["text"] ?? event.text) : event.text
        })
      }
      return
    case "PlanApplied":
      if (isRetired(batch, event.planId)) return
      return patch(batch, "plans", event.planId, { applied: 1, warnings: JSON.stringify(event.warnings) })
    case "PersonAdded":
      if (!batch.has("people", event.personId)) {
        batch.put("people", { person_id: event.personId, user_id: event.user, name: event.name, position })
      }
      return
    case "ReplyQueued":
      if (!batch.has("replies", event.replyId)) {
        batch.put("replies", {
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
      }
      return
    case "ReplySent":
      return patch(batch, "replies", event.replyId, {
        status: "sent",
        provider_message_id: event.providerMessageId,
        sent_at: iso(event.sentAt)
      })
    case "ReplyFailed": {
      const reply = batch.get("replies", event.replyId)
      if (reply && reply["status"] !== "sent") {
        batch.update("replies", reply, { status: event.final ? "failed" : "queued", attempts: event.attempt, last_error: event.detail })
      }
      return
    }
  }
}

/** Apply events in order to the read models (inline on append, or a page of a rebuild). */
export const apply = (events: ReadonlyArray<Projected>): Effect.Effect<void, StoreError, SqlClient> =>
  Effect.gen(function*() {
    if (events.length === 0) return
    const batch = new Batch()
    yield* load(batch, events)
    for (const recorded of events) {
      const refused = evolve(batch, recorded)
      if (refused) return yield* refused
    }
    yield* batch.flush(refuseDuplicate)
  }).pipe(
    Effect.catchTag("SqlError", (cause) => Effect.fail(new StoreError({ reason: "sql", message: String(cause), cause })))
  )

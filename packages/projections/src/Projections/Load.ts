/** Read, in a few statements, every stored row a batch of events may read or change. */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Projected } from "./Projector.js"
import type { Batch, Row } from "./Rows.js"
import type { TableName } from "./Tables.js"

/** Values per `IN` list: far below every driver's parameter limit. */
const listSize = 5000

/** The keys a batch looks up, per table and column. */
class Wanted {
  readonly byTable = new Map<TableName, Map<string, Set<unknown>>>()
  add(table: TableName, column: string, value: unknown) {
    let columns = this.byTable.get(table)
    if (!columns) this.byTable.set(table, columns = new Map())
    let values = columns.get(column)
    if (!values) columns.set(column, values = new Set())
    values.add(value)
  }
}

const wantedBy = (events: ReadonlyArray<Projected>) => {
  const w = new Wanted()
  for (const { event, position } of events) {
    switch (event._tag) {
      case "SessionOpened":
      case "SessionClosed":
      case "PlanFailed":
        w.add("sessions", "session_id", event.sessionId)
        break
      case "MessageReceived":
        w.add("messages", "message_id", event.message.id)
        break
      case "MessageEdited":
        w.add("messages", "message_id", event.messageId)
        w.add("message_edits", "message_id", event.messageId)
        w.add("note_sources", "message_id", event.messageId)
        w.add("instructions", "message_id", event.messageId)
        break
      case "PlanProduced":
        w.add("sessions", "session_id", event.sessionId)
        w.add("plans", "plan_id", event.planId)
        for (const superseded of event.supersedes) {
          w.add("plans", "plan_id", superseded)
          for (const table of ["notes", "questions", "instructions"] as const) w.add(table, "plan_id", superseded)
        }
        break
      case "PlanApplied":
        w.add("plans", "plan_id", event.planId)
        break
      case "NoteRecorded":
        if (event.planId !== null) w.add("plans", "plan_id", event.planId)
        w.add("notes", "note_id", event.noteId)
        w.add("note_directives", "note_id", event.noteId)
        for (const source of event.sources) {
          w.add("messages", "message_id", source.messageId)
          w.add("note_sources", "message_id", source.messageId)
          if (event.questionId !== null) w.add("confirmations", "message_id", source.messageId)
        }
        break
      case "QuestionParked":
        if (event.planId !== null) w.add("plans", "plan_id", event.planId)
        w.add("questions", "question_id", event.questionId)
        w.add("question_messages", "question_id", event.questionId)
        break
      case "QuestionAnswered":
      case "QuestionWithdrawn":
        w.add("questions", "question_id", event.questionId)
        break
      case "InstructionRecorded":
        w.add("plans", "plan_id", event.planId)
        if (event.kind === "message") w.add("messages", "message_id", event.messageId)
        w.add("instructions", "position", position)
        break
      case "PersonAdded":
        w.add("people", "person_id", event.personId)
        break
      case "ReplyQueued":
      case "ReplySent":
      case "ReplyFailed":
        w.add("replies", "reply_id", event.replyId)
        break
    }
  }
  return w
}

const select = (batch: Batch, table: TableName, column: string, values: ReadonlyArray<unknown>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const out: Array<Row> = []
    for (let i = 0; i < values.length; i += listSize) {
      const rows = yield* sql<Row>`SELECT * FROM ${sql(table)} WHERE ${sql.in(column, values.slice(i, i + listSize))}`
      for (const row of rows) batch.load(table, row)
      out.push(...rows)
    }
    return out
  })

/**
 * Load into the batch the rows its events name, and whole notes (sources, directives, source
 * messages) that an edit re-derives or a superseded plan retires.
 */
export const load = (batch: Batch, events: ReadonlyArray<Projected>) =>
  Effect.gen(function*() {
    const w = wantedBy(events)
    const noteIds = new Set<unknown>()
    for (const [table, columns] of w.byTable) {
      for (const [column, values] of columns) {
        const rows = yield* select(batch, table, column, [...values])
        if (table === "note_sources" || (table === "notes" && column === "plan_id")) {
          for (const row of rows) noteIds.add(row["note_id"])
        }
      }
    }
    if (noteIds.size === 0) return
    const ids = [...noteIds]
    yield* select(batch, "notes", "note_id", ids)
    yield* select(batch, "note_directives", "note_id", ids)
    const sources = yield* select(batch, "note_sources", "note_id", ids)
    yield* select(batch, "messages", "message_id", sources.map((s) => s["message_id"]))
  })

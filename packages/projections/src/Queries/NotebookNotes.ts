/** A page of a subject's notes as an export writes them: each with its sources traced to provider messages and where their words end. */
import { SqlClient } from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { Statement } from "@effect/sql/Statement"
import { assembleNote } from "@verbatim/domain/ApplyPlan/Assembly"
import { MessageId, NoteId } from "@verbatim/domain/Ids"
import { Effect, Schema } from "effect"
import { IsoTime, Num } from "./Columns.js"
import { Keyset, keysetPage, NotebookSubject, subjectCondition } from "./Notebook.js"
import type { NotebookNote, NotebookSource } from "./Notebook.js"
import { noteColumns, NoteRow } from "./Views.js"

const SourceRow = Schema.Struct({
  note_id: NoteId,
  message_id: MessageId,
  seq: Num,
  provider: Schema.String,
  provider_message_id: Schema.String,
  received_at: IsoTime,
  forwarded_from: Schema.NullOr(Schema.String),
  text: Schema.String
})
const DirectiveRow = Schema.Struct({ note_id: NoteId, message_id: MessageId, text: Schema.String })

/**
 * Where each source's words end in the body, found by assembling the body again as the notes
 * projection does (`deriveBody`); none when that does not give the stored body.
 */
const bodyEnds = (
  body: string,
  sources: ReadonlyArray<typeof SourceRow.Type>,
  directives: ReadonlyArray<typeof DirectiveRow.Type>
): Map<string, number> => {
  const assembled = assembleNote(sources.map((s) => ({ id: s.message_id, seq: s.seq, text: s.text })), directives.map((d) => ({ messageId: d.message_id, text: d.text })))
  const ends = new Map<string, number>()
  if (assembled.body !== body) return ends
  let at = 0
  for (const segment of assembled.segments) {
    at += segment._tag === "Slice" ? segment.end - segment.start : segment.text.length
    if (segment._tag === "Slice") ends.set(segment.messageId, at)
  }
  return ends
}

const groupBy = <A extends { readonly note_id: NoteId }>(rows: ReadonlyArray<A>): Map<NoteId, Array<A>> => {
  const out = new Map<NoteId, Array<A>>()
  for (const row of rows) {
    const list = out.get(row.note_id) ?? []
    list.push(row)
    out.set(row.note_id, list)
  }
  return out
}

/** A subject's live notes, newest first, each with its provider messages, `limit` at a time from before `before`. */
export const subjectNotePage = (subject: NotebookSubject, before: number | null, limit: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const notes = yield* SqlSchema.findAll({
      Request: Schema.Struct({ subject: NotebookSubject, ...Keyset }),
      Result: NoteRow,
      execute: (r) =>
        sql`SELECT ${sql.literal(noteColumns)} FROM notes n JOIN events e ON e.position = n.position
          WHERE n.note_id IN (SELECT n.note_id FROM notes n WHERE ${subjectCondition(sql, r.subject, r.before)}
            ORDER BY n.position DESC LIMIT ${r.limit}) ORDER BY n.position DESC`
    })({ subject, before, limit })
    const ids = notes.map((n) => n.note_id)
    const ofNotes = <A, I>(Result: Schema.Schema<A, I>, query: (noteIds: ReadonlyArray<string>) => Statement<object>) =>
      ids.length === 0 ? Effect.succeed([]) : SqlSchema.findAll({ Request: Schema.Array(NoteId), Result, execute: query })(ids)
    const sources = yield* ofNotes(SourceRow, (noteIds) =>
      sql`SELECT s.note_id, m.message_id, m.seq, m.provider, m.provider_message_id, m.received_at, m.forwarded_from, m.text FROM note_sources s
      JOIN messages m ON m.message_id = s.message_id WHERE ${sql.in("s.note_id", noteIds)} ORDER BY s.note_id, m.seq`)
    const directives = yield* ofNotes(DirectiveRow, (noteIds) =>
      sql`SELECT d.note_id, d.message_id, d.text FROM note_directives d WHERE ${sql.in("d.note_id", noteIds)} ORDER BY d.note_id, d.ordinal`)
    const sourceRows = groupBy(sources)
    const directiveRows = groupBy(directives)
    const sourcesOf = (noteId: NoteId, body: string): Array<NotebookSource> => {
      const rows = sourceRows.get(noteId) ?? []
      const ends = bodyEnds(body, rows, directiveRows.get(noteId) ?? [])
      return rows.map((s) => ({
        messageId: s.message_id,
        seq: s.seq,
        provider: s.provider,
        providerMessageId: s.provider_message_id,
        receivedAt: s.received_at,
        forwardedFrom: s.forwarded_from,
        bodyEnd: ends.get(s.message_id) ?? null
      }))
    }
    const items = notes.map((row): NotebookNote => ({
      id: row.note_id,
      sessionId: row.session_id,
      body: row.body,
      recordedAt: row.recorded_at,
      sources: sourcesOf(row.note_id, row.body)
    }))
    return keysetPage(items, notes.map((n) => n.position), limit)
  })

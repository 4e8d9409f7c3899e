/** Row-to-view conversions shared by the read queries. */
import { SqlClient } from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { Note, SourceRef } from "@verbatim/domain/ApiResponses"
import type { Owner } from "@verbatim/domain/Decision"
import { MessageId, NoteId, PersonId, SessionId, UserId } from "@verbatim/domain/Ids"
import { Effect, Schema } from "effect"
import { Millis, Num } from "./Columns.js"

/** The columns of `notes` a view needs, with the recorded time of its NoteRecorded event. */
export const NoteRow = Schema.Struct({
  note_id: NoteId,
  user_id: UserId,
  session_id: SessionId,
  owner_kind: Schema.String,
  owner_contact_id: Schema.NullOr(Schema.String),
  owner_name: Schema.NullOr(Schema.String),
  person_id: Schema.NullOr(PersonId),
  body: Schema.String,
  position: Num,
  recorded_at: Millis
})
export type NoteRow = typeof NoteRow.Type

const SourceRow = Schema.Struct({ note_id: NoteId, message_id: MessageId, seq: Num })

/** The select list matching `NoteRow`; the query aliases `notes` as n and `events` as e. */
export const noteColumns = `n.note_id, n.user_id, n.session_id, n.owner_kind, n.owner_contact_id, n.owner_name,
  n.person_id, n.body, n.position, e.recorded_at`

export const ownerOf = (row: NoteRow): Owner =>
  row.owner_kind === "Person"
    ? { _tag: "Person", contactId: row.owner_contact_id, name: row.owner_name ?? "" }
    : { _tag: "Unattached" }

/** Sources of many notes at once, in seq order. */
export const sourcesOf = (sql: SqlClient, noteIds: ReadonlyArray<NoteId>) =>
  noteIds.length === 0
    ? Effect.succeed(new Map<NoteId, Array<SourceRef>>())
    : Effect.map(
      SqlSchema.findAll({
        Request: Schema.Array(NoteId),
        Result: SourceRow,
        execute: (ids) => sql`SELECT note_id, message_id, seq FROM note_sources WHERE ${sql.in("note_id", ids)} ORDER BY note_id, seq`
      })(noteIds),
      (rows) => {
        const out = new Map<NoteId, Array<SourceRef>>()
        for (const row of rows) {
          const list = out.get(row.note_id) ?? []
          list.push({ messageId: row.message_id, seq: row.seq })
          out.set(row.note_id, list)
        }
        return out
      }
    )

export const toNote = (row: NoteRow, sources: ReadonlyArray<SourceRef>): Note => ({
  id: row.note_id,
  user: row.user_id,
  sessionId: row.session_id,
  owner: ownerOf(row),
  personId: row.person_id,
  body: row.body,
  sources,
  recordedAt: row.recorded_at
})

/** Convert note rows to views, loading their sources in one query. */
export const toNotes = (sql: SqlClient, rows: ReadonlyArray<NoteRow>) =>
  Effect.map(sourcesOf(sql, rows.map((r) => r.note_id)), (sources) => rows.map((r) => toNote(r, sources.get(r.note_id) ?? [])))

/** A page of at most `limit` items; the cursor is the last item's key when more may follow. */
export const pageOf = <A>(items: ReadonlyArray<A>, limit: number, key: (a: A) => string) => ({
  items,
  nextCursor: items.length === limit && items.length > 0 ? key(items[items.length - 1]!) : null
})

const ForwardRow = Schema.Struct({ note_id: NoteId, forwarded_from: Schema.String })

/** Whom each of these notes holds words forwarded from, in send order, each name once; notes with none left out. */
export const forwardsOf = Effect.fn("Notebook.forwardsOf")(function*(noteIds: ReadonlyArray<NoteId>) {
  const sql = yield* SqlClient
  const out = new Map<NoteId, Array<string>>()
  if (noteIds.length === 0) return out
  const rows = yield* SqlSchema.findAll({
    Request: Schema.Array(NoteId),
    Result: ForwardRow,
    execute: (ids) =>
      sql`SELECT s.note_id, m.forwarded_from FROM note_sources s
        JOIN messages m ON m.message_id = s.message_id
        WHERE ${sql.in("s.note_id", ids)} AND m.forwarded_from IS NOT NULL ORDER BY s.note_id, s.seq`
  })(noteIds)
  for (const row of rows) {
    const names = out.get(row.note_id) ?? []
    if (!names.includes(row.forwarded_from)) names.push(row.forwarded_from)
    out.set(row.note_id, names)
  }
  return out
})

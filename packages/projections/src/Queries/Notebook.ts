/** A user's notes grouped by whom they are about, with their sources traced to provider messages: what an export writes. */
import { SqlClient } from "@effect/sql/SqlClient"
import { assembleNote } from "@verbatim/domain/ApplyPlan/Assembly"
import { MessageId, NoteId, PersonId, SessionId, UserId } from "@verbatim/domain/Ids"
import type { DateTime } from "effect"
import { Effect, Schema } from "effect"
import { decodeRows, IsoTime, Num } from "./Columns.js"
import { noteColumns, noteRows } from "./Views.js"

/** A message a note was made from, as its provider knows it. */
export interface NotebookSource {
  readonly messageId: MessageId
  readonly seq: number
  readonly provider: string
  readonly providerMessageId: string
  readonly receivedAt: DateTime.Utc
  /** Who the sender forwarded it from; null when it is their own. */
  readonly forwardedFrom: string | null
  /** Where its words end in the note's body (UTF-16 offset); null when none of them is left. */
  readonly bodyEnd: number | null
}

export interface NotebookNote {
  readonly id: NoteId
  readonly sessionId: SessionId
  readonly body: string
  readonly recordedAt: DateTime.Utc
  /** In seq order. */
  readonly sources: ReadonlyArray<NotebookSource>
}

/** The notes about one person, newest first. */
export interface NotebookPerson {
  /** Null for a note about a person who was never added to the user's people. */
  readonly personId: PersonId | null
  readonly name: string
  readonly notes: ReadonlyArray<NotebookNote>
}

export interface Notebook {
  readonly user: UserId
  /** People with notes, in the order they were added (those never added last, by name). */
  readonly people: ReadonlyArray<NotebookPerson>
  /** The user's own notes, about no one, newest first. */
  readonly unattached: ReadonlyArray<NotebookNote>
}

const UserRow = Schema.Struct({ user_id: UserId })
const PersonRow = Schema.Struct({ person_id: PersonId, name: Schema.String, position: Num })
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

/** Users with at least one note, by id. */
export const notebookUsers = Effect.gen(function*() {
  const sql = yield* SqlClient
  const rows = yield* decodeRows(UserRow)(sql`SELECT DISTINCT user_id FROM notes ORDER BY user_id`)
  return rows.map((r) => r.user_id)
})

/** Every note of `user`, grouped by person. */
export const notebook = (user: UserId) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const notes = yield* noteRows(sql`SELECT ${sql.literal(noteColumns)} FROM notes n
      JOIN events e ON e.position = n.position WHERE n.user_id = ${user} AND n.discarded_at IS NULL
      ORDER BY n.position DESC`)
    const sources = yield* decodeRows(SourceRow)(sql`
      SELECT s.note_id, m.message_id, m.seq, m.provider, m.provider_message_id, m.received_at, m.forwarded_from, m.text FROM note_sources s
      JOIN notes n ON n.note_id = s.note_id JOIN messages m ON m.message_id = s.message_id
      WHERE n.user_id = ${user} AND n.discarded_at IS NULL ORDER BY s.note_id, m.seq`)
    const directives = yield* decodeRows(DirectiveRow)(sql`
      SELECT d.note_id, d.message_id, d.text FROM note_directives d JOIN notes n ON n.note_id = d.note_id
      WHERE n.user_id = ${user} AND n.discarded_at IS NULL ORDER BY d.note_id, d.ordinal`)
    const people = yield* decodeRows(PersonRow)(sql`
      SELECT person_id, name, position FROM people WHERE user_id = ${user} AND merged_into IS NULL
      ORDER BY position, person_id`)
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
    const groups = new Map<string, { personId: PersonId | null; name: string; notes: Array<NotebookNote> }>()
    for (const p of people) groups.set(`id:${p.person_id}`, { personId: p.person_id, name: p.name, notes: [] })
    const unattached: Array<NotebookNote> = []
    for (const row of notes) {
      const note: NotebookNote = {
        id: row.note_id,
        sessionId: row.session_id,
        body: row.body,
        recordedAt: row.recorded_at,
        sources: sourcesOf(row.note_id, row.body)
      }
      if (row.owner_kind !== "Person") {
        unattached.push(note)
        continue
      }
      const key = row.person_id === null ? `name:${row.owner_name ?? ""}` : `id:${row.person_id}`
      const group = groups.get(key) ?? { personId: row.person_id, name: row.owner_name ?? "", notes: [] }
      group.notes.push(note)
      groups.set(key, group)
    }
    const unlisted = [...groups.entries()].filter(([key]) => key.startsWith("name:")).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
    const listed = [...groups.entries()].filter(([key]) => key.startsWith("id:"))
    const result: Notebook = {
      user,
      people: [...listed, ...unlisted].map(([, group]) => group).filter((group) => group.notes.length > 0),
      unattached
    }
    return result
  })

/** The notes projection: sources, directives, confirmations, and the body derived from current message text. */
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { assembleNote } from "@verbatim/domain/Assembly"
import type { NoteRecorded } from "@verbatim/domain/Events"
import type { MessageId } from "@verbatim/domain/Ids"
import { Effect } from "effect"
import { StoreError } from "../EventStore.js"

const isUniqueViolation = (error: SqlError): boolean => {
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined
  return cause?.code === "23505" || String(cause?.message ?? "").includes("UNIQUE constraint failed")
}

/** A unique source index refused a row: the message already belongs to another note or confirmation. */
const refuseDuplicate = (what: string) => (error: SqlError): Effect.Effect<never, StoreError | SqlError> =>
  isUniqueViolation(error)
    ? Effect.fail(new StoreError({ reason: "duplicate-source", message: what, cause: error }))
    : Effect.fail(error)

/**
 * Recompute a note's body with the domain's assembly from its sources' current text and its
 * recorded directives; a directive that no longer matches is kept in the body and flagged.
 */
export const deriveBody = (noteId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const messages = yield* sql<{ id: MessageId; seq: number; text: string }>`SELECT m.message_id AS id, m.seq, m.text
      FROM note_sources s JOIN messages m ON m.message_id = s.message_id WHERE s.note_id = ${noteId}`
    const directives = yield* sql<{ ordinal: number; messageId: MessageId; text: string; matched: number }>`SELECT
      ordinal, message_id AS "messageId", text, matched FROM note_directives WHERE note_id = ${noteId} ORDER BY ordinal`
    const assembled = assembleNote(
      messages.map((m) => ({ id: m.id, seq: Number(m.seq), text: m.text })),
      directives
    )
    const cut = new Set(assembled.cuts.map((c) => `${c.messageId}\u0000${c.text}`))
    let unmatched = 0
    for (const directive of directives) {
      const matched = cut.has(`${directive.messageId}\u0000${directive.text}`) ? 1 : 0
      unmatched += 1 - matched
      if (matched === Number(directive.matched)) continue
      yield* sql`UPDATE note_directives SET matched = ${matched}
        WHERE note_id = ${noteId} AND ordinal = ${directive.ordinal}`
    }
    yield* sql`UPDATE notes SET body = ${assembled.body}, unmatched_directives = ${unmatched} WHERE note_id = ${noteId}`
  })

/** Record a note once; a second NoteRecorded for the same note changes nothing. */
export const recordNote = (event: typeof NoteRecorded.Type, position: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const existing = yield* sql`SELECT 1 AS n FROM notes WHERE note_id = ${event.noteId}`
    if (existing.length > 0) return
    const owner = event.owner
    yield* sql`INSERT INTO notes ${
      sql.insert({
        note_id: event.noteId,
        session_id: event.sessionId,
        user_id: event.user,
        plan_id: event.planId,
        question_id: event.questionId,
        owner_kind: owner._tag,
        owner_contact_id: owner._tag === "Person" ? owner.contactId : null,
        owner_name: owner._tag === "Person" ? owner.name : null,
        person_id: event.personId,
        merged_from: event.mergedFrom,
        body: "",
        unmatched_directives: 0,
        position
      })
    }`
    // One multi-row insert per table: a rebuild replays every note, so statements count.
    if (event.sources.length > 0) {
      yield* sql`INSERT INTO note_sources ${
        sql.insert(event.sources.map((s) => ({ message_id: s.messageId, note_id: event.noteId, seq: s.seq })))
      }`.pipe(Effect.catchTag("SqlError", refuseDuplicate(`a source of ${event.noteId} is already in a note`)))
    }
    if (event.questionId !== null && event.sources.length > 0) {
      const questionId = event.questionId
      yield* sql`INSERT INTO confirmations ${
        sql.insert(event.sources.map((s) => ({ message_id: s.messageId, question_id: questionId, note_id: event.noteId })))
      }`.pipe(Effect.catchTag("SqlError", refuseDuplicate(`a source of ${event.noteId} was already confirmed`)))
    }
    if (event.directives.length > 0) {
      yield* sql`INSERT INTO note_directives ${
        sql.insert(event.directives.map((d, ordinal) => ({
          note_id: event.noteId,
          ordinal,
          message_id: d.messageId,
          seq: d.seq,
          text: d.text,
          matched: 0
        })))
      }`
    }
    yield* deriveBody(event.noteId)
  })

/** Re-derive every note a message is a source of (after an edit). */
export const rederiveNotesOf = (messageId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const notes = yield* sql<{ note_id: string }>`SELECT note_id FROM note_sources WHERE message_id = ${messageId}`
    for (const note of notes) yield* deriveBody(note.note_id)
  })

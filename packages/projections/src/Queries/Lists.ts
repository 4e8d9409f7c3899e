/** The paged list queries of the read API: people, a person's notes, questions, events, a session's messages. */
import { SqlClient } from "@effect/sql/SqlClient"
import { checkpointOfCursor, cursorOf, type EventsPage, type Person, type Question } from "@verbatim/domain/ApiResponses"
import { Candidate, QuestionReason } from "@verbatim/domain/Decision"
import { MessageId, type NoteId, PersonId, QuestionId, SessionId, UserId } from "@verbatim/domain/Ids"
import { Event } from "@verbatim/domain/Events"
import { MessageKind } from "@verbatim/domain/Message"
import { Effect, Option, Schema } from "effect"
import { type Checkpoint, checkpointOf, EventStore, type RecordedEvent, start } from "../EventStore.js"
import { decodeRows, Json, Num } from "./Columns.js"
import { noteColumns, noteRows, pageOf, toNotes } from "./Views.js"

/** Which page of a list: at most `limit` items after `cursor`, optionally for one user. */
export interface ListOptions {
  readonly user?: UserId | undefined
  readonly limit: number
  readonly cursor?: string | undefined
}

const PersonRow = Schema.Struct({ person_id: PersonId, user_id: UserId, name: Schema.String, note_count: Num })

const QuestionRow = Schema.Struct({
  question_id: QuestionId,
  session_id: SessionId,
  user_id: UserId,
  reason: QuestionReason,
  status: Schema.Literal("open", "answered"),
  candidates: Json(Schema.Array(Candidate)),
  position: Num
})

const QuestionSourceRow = Schema.Struct({ question_id: QuestionId, message_id: MessageId, seq: Num, text: Schema.String })

const MessageRow = Schema.Struct({ message_id: MessageId, seq: Num, text: Schema.String, kind: MessageKind, forwarded_from: Schema.NullOr(Schema.String) })

/** A person's notes as counted and listed: those not discarded. */
export const liveNoteCount = `(SELECT COUNT(*) FROM notes n WHERE n.person_id = p.person_id AND n.discarded_at IS NULL)`

/** People not merged into another, by id. */
export const people = (options: ListOptions) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* decodeRows(PersonRow)(sql`
      SELECT p.person_id, p.user_id, p.name, ${sql.literal(liveNoteCount)} AS note_count
      FROM people p
      WHERE ${options.user === undefined ? sql`1 = 1` : sql`p.user_id = ${options.user}`}
        AND p.merged_into IS NULL AND p.person_id > ${options.cursor ?? ""}
      ORDER BY p.person_id LIMIT ${options.limit}`)
    const items = rows.map((r): Person => ({ id: r.person_id, user: r.user_id, name: r.name, noteCount: r.note_count }))
    return pageOf(items, options.limit, (p) => p.id)
  })

/** One person with their note count, when there is one by that id (merged into another or not). */
export const person = (personId: PersonId) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const [row] = yield* decodeRows(PersonRow)(sql`
      SELECT p.person_id, p.user_id, p.name, ${sql.literal(liveNoteCount)} AS note_count
      FROM people p WHERE p.person_id = ${personId}`)
    return Option.map(Option.fromNullable(row), (r): Person => ({ id: r.person_id, user: r.user_id, name: r.name, noteCount: r.note_count }))
  })

/** A person's newest notes first, at most `limit`; the discarded ones instead when `discarded`. */
export const newestNotes = (personId: PersonId, limit: number, discarded = false) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* noteRows(sql`SELECT ${sql.literal(noteColumns)} FROM notes n
      JOIN events e ON e.position = n.position WHERE n.person_id = ${personId}
        AND n.discarded_at IS ${sql.literal(discarded ? "NOT NULL" : "NULL")}
      ORDER BY n.position DESC LIMIT ${limit}`)
    return yield* toNotes(sql, rows)
  })

/** A user's own notes (about no one), newest first, at most `limit`; the discarded ones instead when `discarded`. */
export const ownNotes = (user: UserId | undefined, limit: number, discarded = false) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* noteRows(sql`SELECT ${sql.literal(noteColumns)} FROM notes n
      JOIN events e ON e.position = n.position WHERE n.person_id IS NULL
        AND ${user === undefined ? sql`1 = 1` : sql`n.user_id = ${user}`}
        AND n.discarded_at IS ${sql.literal(discarded ? "NOT NULL" : "NULL")}
      ORDER BY n.position DESC LIMIT ${limit}`)
    return yield* toNotes(sql, rows)
  })

/** A positional list's cursor: the API lets only digits through. */
const afterPosition = (cursor: string | undefined) => (cursor === undefined ? 0 : Number(cursor))

/** A person's notes in the order they were recorded (their discarded ones when `discarded`), or none when the person is unknown. */
export const notesByPerson = (personId: PersonId, options: ListOptions & { readonly discarded?: boolean | undefined }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const known = yield* sql`SELECT 1 AS n FROM people WHERE person_id = ${personId}`
    const rows = yield* noteRows(sql`SELECT ${sql.literal(noteColumns)} FROM notes n
      JOIN events e ON e.position = n.position
      WHERE n.person_id = ${personId} AND n.discarded_at IS ${sql.literal(options.discarded === true ? "NOT NULL" : "NULL")}
        AND n.position > ${afterPosition(options.cursor)}
        AND ${options.user === undefined ? sql`1 = 1` : sql`n.user_id = ${options.user}`}
      ORDER BY n.position LIMIT ${options.limit}`)
    if (known.length === 0 && rows.length === 0) return Option.none()
    const notes = yield* toNotes(sql, rows)
    return Option.some(pageOf(notes, options.limit, () => String(rows[rows.length - 1]!.position)))
  })

/** One note with its derived body. */
export const note = (noteId: NoteId) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* noteRows(sql`SELECT ${sql.literal(noteColumns)} FROM notes n
      JOIN events e ON e.position = n.position WHERE n.note_id = ${noteId}`)
    return Option.fromNullable((yield* toNotes(sql, rows))[0])
  })

/** Questions in the order they were parked, open ones by default. */
export const questions = (options: ListOptions & { readonly status?: "open" | "answered" | undefined }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* decodeRows(QuestionRow)(sql`SELECT question_id, session_id, user_id, reason, status, candidates,
      position FROM questions
      WHERE status = ${options.status ?? "open"} AND position > ${afterPosition(options.cursor)}
        AND ${options.user === undefined ? sql`1 = 1` : sql`user_id = ${options.user}`}
      ORDER BY position LIMIT ${options.limit}`)
    const ids = rows.map((r) => r.question_id)
    const sources = ids.length === 0 ? [] : yield* decodeRows(QuestionSourceRow)(sql`
      SELECT qm.question_id, qm.message_id, qm.seq, m.text FROM question_messages qm
      JOIN messages m ON m.message_id = qm.message_id WHERE ${sql.in("qm.question_id", ids)} ORDER BY qm.seq`)
    const items = rows.map((r): Question => ({
      id: r.question_id,
      sessionId: r.session_id,
      user: r.user_id,
      reason: r.reason,
      status: r.status,
      sources: sources.filter((s) => s.question_id === r.question_id).map((s) => ({
        messageId: s.message_id,
        seq: s.seq,
        text: s.text
      })),
      candidates: r.candidates
    }))
    return pageOf(items, options.limit, () => String(rows[rows.length - 1]!.position))
  })

const encodeEvent = Schema.encodeSync(Event)

/** Bytes of an event's payload as the API sends it. */
const payloadBytes = (event: Event): number => Buffer.byteLength(JSON.stringify(encodeEvent(event)), "utf8")

/** Rows read at first; later reads are sized by the payloads seen so far. */
const firstRead = 8

/**
 * Events after a cursor, in the order a catch-up reader must follow (on PostgreSQL, committed
 * transactions older than every running one, by transaction id then position), so paging never
 * skips an event whose transaction committed after a later position was read.
 *
 * At most `limit` events whose payloads together fit `maxBytes`, but always at least one, so
 * paging moves on past an event larger than the budget. Rows are read a few at a time: a page of
 * 500 large messages is never held whole.
 */
export const events = (after: string | undefined, limit: number, maxBytes = Number.POSITIVE_INFINITY) =>
  Effect.gen(function*() {
    const store = yield* EventStore
    const from = after === undefined ? start : checkpointOfCursor(after)
    const kept: Array<RecordedEvent> = []
    let bytes = 0
    let cursor: Checkpoint = from
    let want = Math.min(limit, firstRead)
    while (kept.length < limit) {
      const read = yield* store.readPage(cursor, want)
      let full = false
      for (const r of read) {
        const size = payloadBytes(r.event)
        if (kept.length > 0 && bytes + size > maxBytes) {
          full = true
          break
        }
        kept.push(r)
        bytes += size
        if (kept.length === limit) break
      }
      if (full || read.length < want) break
      cursor = checkpointOf(read[read.length - 1]!)
      const remaining = limit - kept.length
      const fitting = Number.isFinite(maxBytes) ? Math.floor((maxBytes - bytes) / Math.max(1, bytes / kept.length)) + 1 : remaining
      want = Math.max(1, Math.min(remaining, fitting))
    }
    const last = kept[kept.length - 1]
    const page: EventsPage = {
      events: kept.map((r) => ({
        position: r.position,
        cursor: cursorOf(r),
        streamId: r.stream,
        streamVersion: r.version,
        event: r.event,
        recordedAt: r.recordedAt
      })),
      nextAfter: cursorOf(last ?? from)
    }
    return page
  })

/** A session's messages as the planner reads them: current text, in seq order, each with who wrote it first when forwarded. */
export const sessionMessages = (sessionId: SessionId) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* decodeRows(MessageRow)(sql`
      SELECT message_id, seq, text, kind, forwarded_from FROM messages WHERE session_id = ${sessionId} ORDER BY seq`)
    return rows.map((r) => ({ id: r.message_id, seq: r.seq, text: r.text, kind: r.kind, forwardedFrom: r.forwarded_from }))
  })

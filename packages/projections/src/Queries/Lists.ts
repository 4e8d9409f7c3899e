/** The paged list queries of the read API: people, a person's notes, questions, a session's messages. */
import { SqlClient } from "@effect/sql/SqlClient"
import type * as Statement from "@effect/sql/Statement"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { Person, Question } from "@verbatim/domain/ApiResponses"
import { Candidate, QuestionReason } from "@verbatim/domain/Decision"
import { MessageId, NoteId, PersonId, QuestionId, SessionId, UserId } from "@verbatim/domain/Ids"
import { MessageKind } from "@verbatim/domain/Message"
import { Effect, Option, Schema } from "effect"
import { Json, Num } from "./Columns.js"
import { noteColumns, NoteRow, pageOf, toNotes } from "./Views.js"

/** Which page of a list: at most `limit` items after `cursor`, optionally for one user. */
export interface ListOptions {
  readonly user?: UserId | undefined
  readonly limit: number
  readonly cursor?: string | undefined
}

/** A page's request as its query reads it: the cursor is the last key read ("" for the first page). */
const Page = Schema.Struct({ user: Schema.UndefinedOr(UserId), limit: Schema.Number, cursor: Schema.String })

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
    const rows = yield* SqlSchema.findAll({
      Request: Page,
      Result: PersonRow,
      execute: (r) =>
        sql`SELECT p.person_id, p.user_id, p.name, ${sql.literal(liveNoteCount)} AS note_count FROM people p
          WHERE ${r.user === undefined ? sql`1 = 1` : sql`p.user_id = ${r.user}`} AND p.merged_into IS NULL AND p.person_id > ${r.cursor}
          ORDER BY p.person_id LIMIT ${r.limit}`
    })({ user: options.user, limit: options.limit, cursor: options.cursor ?? "" })
    const items = rows.map((r): Person => ({ id: r.person_id, user: r.user_id, name: r.name, noteCount: r.note_count }))
    return pageOf(items, options.limit, (p) => p.id)
  })

/** One person with their note count, when there is one by that id (merged into another or not). */
export const person = (personId: PersonId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findOne({
      Request: PersonId,
      Result: PersonRow,
      execute: (id) => sql`SELECT p.person_id, p.user_id, p.name, ${sql.literal(liveNoteCount)} AS note_count FROM people p WHERE p.person_id = ${id}`
    })(personId).pipe(Effect.map(Option.map((r): Person => ({ id: r.person_id, user: r.user_id, name: r.name, noteCount: r.note_count })))))

/** How many of a person's notes are discarded. */
export const discardedCount = (personId: PersonId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.single({
      Request: PersonId,
      Result: Schema.Struct({ n: Num }),
      execute: (id) => sql`SELECT COUNT(*) AS n FROM notes n WHERE n.person_id = ${id} AND n.discarded_at IS NOT NULL`
    })(personId).pipe(Effect.map((row) => row.n)))

/** Which page of a list of notes newest first: at most `limit`, below the position `before` when given; the discarded ones when `discarded`. */
export interface NewestOptions {
  readonly limit: number
  readonly discarded?: boolean | undefined
  /** The cursor a page before this one answered (a note's position). */
  readonly before?: string | undefined
}

const NewestRequest = Schema.Struct({ limit: Schema.Number, discarded: Schema.Boolean, below: Schema.Number })

/** The request a newest-first page reads: below the cursor's position, or from the top. */
const newestRequest = (options: NewestOptions): typeof NewestRequest.Type => ({
  limit: options.limit,
  discarded: options.discarded === true,
  below: options.before === undefined ? Number.MAX_SAFE_INTEGER : Number(options.before)
})

/**
 * A page of notes newest first, with the cursor of the next (older) page when older notes remain:
 * one row more than the page is read to tell, so a list of exactly a page's notes offers no empty next page.
 */
const newestPage = (sql: SqlClient, whose: Statement.Fragment, options: NewestOptions) =>
  Effect.gen(function*() {
    const read = yield* SqlSchema.findAll({
      Request: NewestRequest,
      Result: NoteRow,
      execute: (r) =>
        sql`SELECT ${sql.literal(noteColumns)} FROM notes n JOIN events e ON e.position = n.position
          WHERE ${whose} AND n.discarded_at IS ${sql.literal(r.discarded ? "NOT NULL" : "NULL")} AND n.position < ${r.below}
          ORDER BY n.position DESC LIMIT ${r.limit + 1}`
    })(newestRequest(options))
    const rows = read.slice(0, options.limit)
    const items = yield* toNotes(sql, rows)
    return { items, nextCursor: read.length > rows.length ? String(rows[rows.length - 1]!.position) : null }
  })

/** A person's notes newest first, a page at a time; their discarded ones instead when asked. */
export const newestNotes = (personId: PersonId, options: NewestOptions) =>
  Effect.flatMap(SqlClient, (sql) => newestPage(sql, sql`n.person_id = ${personId}`, options))

/** A user's own notes (about no one; everyone's when no user), newest first, a page at a time; the discarded ones instead when asked. */
export const ownNotes = (user: UserId | undefined, options: NewestOptions) =>
  Effect.flatMap(SqlClient, (sql) =>
    newestPage(sql, sql`n.person_id IS NULL AND ${user === undefined ? sql`1 = 1` : sql`n.user_id = ${user}`}`, options))

/** A positional list's cursor: the API lets only digits through. */
const afterPosition = (cursor: string | undefined) => (cursor === undefined ? 0 : Number(cursor))

/** A person's notes in the order they were recorded (their discarded ones when `discarded`), or none when the person is unknown. */
export const notesByPerson = (personId: PersonId, options: ListOptions & { readonly discarded?: boolean | undefined }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const known = yield* sql`SELECT 1 AS n FROM people WHERE person_id = ${personId}`
    const rows = yield* SqlSchema.findAll({
      Request: Schema.Struct({ person: PersonId, user: Schema.UndefinedOr(UserId), limit: Schema.Number, after: Schema.Number, discarded: Schema.Boolean }),
      Result: NoteRow,
      execute: (r) =>
        sql`SELECT ${sql.literal(noteColumns)} FROM notes n JOIN events e ON e.position = n.position
          WHERE n.person_id = ${r.person} AND n.discarded_at IS ${sql.literal(r.discarded ? "NOT NULL" : "NULL")}
            AND n.position > ${r.after} AND ${r.user === undefined ? sql`1 = 1` : sql`n.user_id = ${r.user}`}
          ORDER BY n.position LIMIT ${r.limit}`
    })({ person: personId, user: options.user, limit: options.limit, after: afterPosition(options.cursor), discarded: options.discarded === true })
    if (known.length === 0 && rows.length === 0) return Option.none()
    const notes = yield* toNotes(sql, rows)
    return Option.some(pageOf(notes, options.limit, () => String(rows[rows.length - 1]!.position)))
  })

/** One note with its derived body. */
export const note = (noteId: NoteId) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* SqlSchema.findAll({
      Request: NoteId,
      Result: NoteRow,
      execute: (id) => sql`SELECT ${sql.literal(noteColumns)} FROM notes n JOIN events e ON e.position = n.position WHERE n.note_id = ${id}`
    })(noteId)
    return Option.fromNullable((yield* toNotes(sql, rows))[0])
  })

/** Questions in the order they were parked, open ones by default. */
export const questions = (options: ListOptions & { readonly status?: "open" | "answered" | undefined }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* SqlSchema.findAll({
      Request: Schema.Struct({ status: Schema.Literal("open", "answered"), user: Schema.UndefinedOr(UserId), limit: Schema.Number, after: Schema.Number }),
      Result: QuestionRow,
      execute: (r) =>
        sql`SELECT question_id, session_id, user_id, reason, status, candidates, position FROM questions
          WHERE status = ${r.status} AND position > ${r.after} AND ${r.user === undefined ? sql`1 = 1` : sql`user_id = ${r.user}`}
          ORDER BY position LIMIT ${r.limit}`
    })({ status: options.status ?? "open", user: options.user, limit: options.limit, after: afterPosition(options.cursor) })
    const ids = rows.map((r) => r.question_id)
    const sources = ids.length === 0 ? [] : yield* SqlSchema.findAll({
      Request: Schema.Array(QuestionId),
      Result: QuestionSourceRow,
      execute: (list) =>
        sql`SELECT qm.question_id, qm.message_id, qm.seq, m.text FROM question_messages qm
          JOIN messages m ON m.message_id = qm.message_id WHERE ${sql.in("qm.question_id", list)} ORDER BY qm.seq`
    })(ids)
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

/** A session's messages as the planner reads them: current text, in seq order, each with who wrote it first when forwarded. */
export const sessionMessages = (sessionId: SessionId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: SessionId,
      Result: MessageRow,
      execute: (id) => sql`SELECT message_id, seq, text, kind, forwarded_from FROM messages WHERE session_id = ${id} ORDER BY seq`
    })(sessionId).pipe(
      Effect.map((rows) => rows.map((r) => ({ id: r.message_id, seq: r.seq, text: r.text, kind: r.kind, forwardedFrom: r.forwarded_from })))
    ))

/**
 * Full-text search over message text (a note's body is its messages' text minus cuts, so a word of
 * a body is found through its message), through the index `SearchIndex.ts` keeps. Both backends
 * fold case and accents the same way (`reuniao` finds `reunião`), so a query finds the same
 * messages on either.
 *
 * Newest first, a page at a time: on SQLite the full-text index hands its matches newest first by
 * rowid (a message's row is written as it is received, so its rowid is its place in the order
 * received) and the read stops at its page, however many match. On PostgreSQL a search first
 * reads the newest messages in order (a user's through `messages_sender_newest`, everyone's through
 * `messages_newest`), checking each against the index, and stops at its page; only when those hold
 * fewer than a page does it gather every match from the GIN index and keep the newest. Left to choose, PostgreSQL's planner
 * gathered a word half of a million messages hold and sorted it (BENCHMARKS.md, "PostgreSQL with
 * migration 29").
 */
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { MessageId, NoteId, PersonId, SessionId, UserId } from "@verbatim/domain/Ids"
import { Effect, Schema } from "effect"
import { Num } from "./Columns.js"

/** One message that matches, who it was forwarded from, and the note it is in and whom that is filed under, if any. */
export const SearchHit = Schema.Struct({
  messageId: MessageId,
  sessionId: SessionId,
  seq: Num,
  user: UserId,
  text: Schema.String,
  forwardedFrom: Schema.NullOr(Schema.String),
  noteId: Schema.NullOr(NoteId),
  personId: Schema.NullOr(PersonId),
  person: Schema.NullOr(Schema.String)
})
export type SearchHit = typeof SearchHit.Type

/** A page of hits, and the message the next page starts below (null when this page is the last). */
export interface SearchPage {
  readonly hits: ReadonlyArray<SearchHit>
  readonly next: MessageId | null
}

/** Which page: at most `limit` hits, below the message `before` when given; only `user`'s when given. */
export interface SearchOptions {
  readonly user?: UserId | undefined
  readonly limit: number
  readonly before?: MessageId | undefined
}

/** Each word of the query as an FTS5 string (quoted, so no word is read as an operator), all required. */
export const ftsQuery = (query: string): string =>
  query.split(/\s+/).filter((word) => word !== "").map((word) => `"${word.replace(/"/g, "\"\"")}"`).join(" ")

const MatchRow = Schema.Struct({
  message_id: MessageId,
  session_id: SessionId,
  seq: Num,
  sender: UserId,
  text: Schema.String,
  forwarded_from: Schema.NullOr(Schema.String)
})

const NoteRow = Schema.Struct({
  message_id: MessageId,
  note_id: NoteId,
  person_id: Schema.NullOr(PersonId),
  name: Schema.NullOr(Schema.String)
})

const Request = Schema.Struct({
  query: Schema.String,
  user: Schema.UndefinedOr(UserId),
  limit: Schema.Number,
  before: Schema.UndefinedOr(MessageId)
})

/**
 * PostgreSQL: how many of the newest messages a search reads, checking each against the index,
 * before it asks the full-text index for every match instead. A word one message in 40
 * holds fills a page within them; a rarer one has few enough matches to gather and order.
 */
export const pgWalk = 2000

/** The page's matching messages, newest first. */
const matches = (request: typeof Request.Type) =>
  Effect.flatMap(SqlClient, (sql) => {
    const columns = sql`m.message_id, m.session_id, m.seq, m.sender, m.text, m.forwarded_from`
    const whose = (user: string | undefined) => (user === undefined ? sql`1 = 1` : sql`m.sender = ${user}`)
    const below = (before: string | undefined) =>
      before === undefined
        ? sql`1 = 1`
        : sql`(m.received_at, m.message_id) < (SELECT b.received_at, b.message_id FROM messages b WHERE b.message_id = ${before})`
    const find = (execute: (request: typeof Request.Encoded) => Effect.Effect<ReadonlyArray<unknown>, SqlError>) =>
      SqlSchema.findAll({ Request, Result: MatchRow, execute })(request)
    // The newest messages in order (a user's through `messages_sender_newest`, everyone's through
    // `messages_newest`), each checked against its own index entry: a subquery per message, so the
    // planner cannot swap the walk for a join that gathers every match of a common word first.
    const walk = find(({ before, limit, query, user }) =>
      sql`SELECT ${columns} FROM (
          SELECT m.message_id, m.session_id, m.seq, m.sender, m.text, m.forwarded_from, m.received_at FROM messages m
          WHERE ${whose(user)} AND ${below(before)}
          ORDER BY m.received_at DESC, m.message_id DESC LIMIT ${pgWalk}
        ) m
        WHERE (SELECT x.tsv FROM message_search x WHERE x.message_id = m.message_id) @@ plainto_tsquery('simple', search_fold(${query}))
        ORDER BY m.received_at DESC, m.message_id DESC LIMIT ${limit}`)
    // Every match from the GIN index, the newest kept.
    const gathered = find(({ before, limit, query, user }) =>
      sql`SELECT ${columns} FROM messages m JOIN message_search x ON x.message_id = m.message_id
        WHERE x.tsv @@ plainto_tsquery('simple', search_fold(${query})) AND ${whose(user)}
          AND ${below(before)}
        ORDER BY m.received_at DESC, m.message_id DESC LIMIT ${limit}`)
    return sql.onDialectOrElse({
      pg: () => Effect.flatMap(walk, (walked) => (walked.length === request.limit ? Effect.succeed(walked) : gathered)),
      orElse: () =>
        find(({ before, limit, query, user }) =>
          sql`SELECT ${columns} FROM messages_fts f JOIN messages m ON m.rowid = f.rowid
          WHERE messages_fts MATCH ${ftsQuery(query)} AND ${whose(user)}
            AND ${before === undefined ? sql`1 = 1` : sql`f.rowid < (SELECT b.rowid FROM messages b WHERE b.message_id = ${before})`}
          ORDER BY f.rowid DESC LIMIT ${limit}`)
    })
  })

/** The notes the page's messages are in, and whom each is filed under. */
const notesOf = (ids: ReadonlyArray<MessageId>) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: Schema.Array(MessageId),
      Result: NoteRow,
      execute: (messages) =>
        sql`SELECT s.message_id, s.note_id, n.person_id, p.name FROM note_sources s
          LEFT JOIN notes n ON n.note_id = s.note_id LEFT JOIN people p ON p.person_id = n.person_id
          WHERE ${sql.in("s.message_id", messages)}`
    })(ids))

/** Messages matching every word of `query`, newest first, a page at a time. */
export const search = (query: string, options: SearchOptions) =>
  Effect.gen(function*() {
    if (ftsQuery(query) === "") return { hits: [], next: null } satisfies SearchPage
    const found = yield* matches({ query, user: options.user, limit: options.limit, before: options.before })
    const notes = found.length === 0 ? [] : yield* notesOf(found.map((m) => m.message_id))
    const noteOf = new Map(notes.map((n) => [n.message_id, n]))
    const hits = found.map((m): SearchHit => {
      const note = noteOf.get(m.message_id)
      return {
        messageId: m.message_id,
        sessionId: m.session_id,
        seq: m.seq,
        user: m.sender,
        text: m.text,
        forwardedFrom: m.forwarded_from,
        noteId: note?.note_id ?? null,
        personId: note?.person_id ?? null,
        person: note?.name ?? null
      }
    })
    const last = found.at(-1)
    return { hits, next: found.length === options.limit && last !== undefined ? last.message_id : null } satisfies SearchPage
  })

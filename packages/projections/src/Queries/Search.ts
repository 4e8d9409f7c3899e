/**
 * Full-text search over message text (a note's body is its messages' text minus cuts, so a word of
 * a body is found through its message), through the index `SearchIndex.ts` keeps. Both backends
 * fold case and accents the same way (`reuniao` finds `reunião`), so a query finds the same
 * messages on either.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { MessageId, NoteId, SessionId, UserId } from "@verbatim/domain/Ids"
import { Effect, Schema } from "effect"
import { decodeRows, Num } from "./Columns.js"

/** One message that matches, and the note it is in, if any. */
export const SearchHit = Schema.Struct({
  messageId: MessageId,
  sessionId: SessionId,
  seq: Num,
  user: UserId,
  text: Schema.String,
  noteId: Schema.NullOr(NoteId)
})
export type SearchHit = typeof SearchHit.Type

/** Each word of the query as an FTS5 string (quoted, so no word is read as an operator), all required. */
export const ftsQuery = (query: string): string =>
  query.split(/\s+/).filter((word) => word !== "").map((word) => `"${word.replace(/"/g, "\"\"")}"`).join(" ")

/** Messages matching every word of `query`, newest first, at most `limit`; only `user`'s when given. */
export const search = (query: string, options: { readonly user?: string | undefined; readonly limit: number }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    if (ftsQuery(query) === "") return []
    const user = options.user === undefined ? sql`1 = 1` : sql`m.sender = ${options.user}`
    const note = sql`(SELECT s.note_id FROM note_sources s WHERE s.message_id = m.message_id ORDER BY s.note_id LIMIT 1)`
    const matching = sql.onDialectOrElse({
      pg: () => sql`SELECT m.message_id AS "messageId", m.session_id AS "sessionId", m.seq, m.sender AS "user", m.text, ${note} AS "noteId"
        FROM message_search x JOIN messages m ON m.message_id = x.message_id
        WHERE x.tsv @@ plainto_tsquery('simple', search_fold(${query})) AND ${user}
        ORDER BY m.received_at DESC, m.message_id LIMIT ${options.limit}`,
      orElse: () => sql`SELECT m.message_id AS messageId, m.session_id AS sessionId, m.seq, m.sender AS user, m.text, ${note} AS noteId
        FROM messages_fts f JOIN messages m ON m.rowid = f.rowid
        WHERE messages_fts MATCH ${ftsQuery(query)} AND ${user}
        ORDER BY m.received_at DESC, m.message_id LIMIT ${options.limit}`
    })
    return yield* decodeRows(SearchHit)(matching)
  })

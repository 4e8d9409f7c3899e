/**
 * Full-text search over message text (a note's body is its messages' text minus cuts, so a word of
 * a body is found through its message), through the index `SearchIndex.ts` keeps. Both backends
 * fold case and accents the same way (`reuniao` finds `reunião`), so a query finds the same
 * messages on either.
 */
import { SqlClient } from "@effect/sql/SqlClient"
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

/** Each word of the query as an FTS5 string (quoted, so no word is read as an operator), all required. */
export const ftsQuery = (query: string): string =>
  query.split(/\s+/).filter((word) => word !== "").map((word) => `"${word.replace(/"/g, "\"\"")}"`).join(" ")

/** Messages matching every word of `query`, newest first, at most `limit`; only `user`'s when given. */
export const search = (query: string, options: { readonly user?: UserId | undefined; readonly limit: number }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    if (ftsQuery(query) === "") return []
    return yield* SqlSchema.findAll({
      Request: Schema.Struct({ query: Schema.String, user: Schema.UndefinedOr(UserId), limit: Schema.Number }),
      Result: SearchHit,
      execute: (r) => {
        const user = r.user === undefined ? sql`1 = 1` : sql`m.sender = ${r.user}`
        const columns = sql`m.message_id, m.session_id, m.seq, m.sender, m.text, m.forwarded_from, m.received_at`
        // The newest matches first, then their notes and people: only the page shown is joined.
        const newest = sql.onDialectOrElse({
          pg: () => sql`SELECT ${columns} FROM message_search x JOIN messages m ON m.message_id = x.message_id
            WHERE x.tsv @@ plainto_tsquery('simple', search_fold(${r.query})) AND ${user}
            ORDER BY m.received_at DESC, m.message_id LIMIT ${r.limit}`,
          orElse: () => sql`SELECT ${columns} FROM messages_fts f JOIN messages m ON m.rowid = f.rowid
            WHERE messages_fts MATCH ${ftsQuery(r.query)} AND ${user}
            ORDER BY m.received_at DESC, m.message_id LIMIT ${r.limit}`
        })
        return sql`SELECT h.message_id AS ${sql("messageId")}, h.session_id AS ${sql("sessionId")}, h.seq,
            h.sender AS ${sql("user")}, h.text, h.forwarded_from AS ${sql("forwardedFrom")}, s.note_id AS ${sql("noteId")},
            n.person_id AS ${sql("personId")}, p.name AS ${sql("person")}
          FROM (${newest}) h LEFT JOIN note_sources s ON s.message_id = h.message_id LEFT JOIN notes n ON n.note_id = s.note_id
          LEFT JOIN people p ON p.person_id = n.person_id
          ORDER BY h.received_at DESC, h.message_id`
      }
    })({ query, user: options.user, limit: options.limit })
  })

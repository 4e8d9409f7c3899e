/**
 * Full-text search over message text (a note's body is its messages' text minus cuts, so a word of
 * a body is found through its message). The index follows the `messages` table through triggers
 * the migration creates, so every write the projections make, a rebuild's included, keeps it
 * current: an FTS5 external-content table on SQLite, a `tsvector` with a GIN index on PostgreSQL.
 * Both tokenise the same way (case folded, accents kept), so a query finds the same messages on
 * either backend.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { MessageId, NoteId, SessionId, UserId } from "@verbatim/domain/Ids"
import { Effect, Schema } from "effect"
import { decodeRows, Num } from "./Columns.js"

/** PostgreSQL: the GIN index over each message's `tsvector`. */
const pgIndex = "CREATE INDEX message_search_tsv ON message_search USING GIN (tsv)"

/** PostgreSQL: the trigger that keeps `message_search` (its function is created by the migration). */
const pgTrigger = `CREATE TRIGGER messages_search AFTER INSERT OR UPDATE OR DELETE ON messages
          FOR EACH ROW EXECUTE FUNCTION message_search_sync()`

/** SQLite: the triggers that keep the FTS5 table. */
const sqliteTriggers = [
  `CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
          INSERT INTO messages_fts (rowid, text) VALUES (new.rowid, new.text); END`,
  `CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
          INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.rowid, old.text); END`,
  `CREATE TRIGGER messages_fts_update AFTER UPDATE ON messages BEGIN
          INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
          INSERT INTO messages_fts (rowid, text) VALUES (new.rowid, new.text); END`
]

/** Index every message in one statement. */
const pgIndexAll = "INSERT INTO message_search (message_id, tsv) SELECT message_id, to_tsvector('simple', text) FROM messages"
const sqliteIndexAll = "INSERT INTO messages_fts (messages_fts) VALUES ('rebuild')"

/** The index and the triggers that keep it (a migration); existing messages are indexed at once. */
export const searchIndex = Effect.gen(function*() {
  const sql = yield* SqlClient
  const statements = sql.onDialectOrElse({
    pg: () => [
      "CREATE TABLE message_search (message_id TEXT PRIMARY KEY, tsv tsvector NOT NULL)",
      pgIndex,
      `CREATE FUNCTION message_search_sync() RETURNS trigger AS $$
          BEGIN
            IF TG_OP = 'DELETE' THEN
              DELETE FROM message_search WHERE message_id = OLD.message_id;
              RETURN OLD;
            END IF;
            INSERT INTO message_search (message_id, tsv) VALUES (NEW.message_id, to_tsvector('simple', NEW.text))
              ON CONFLICT (message_id) DO UPDATE SET tsv = excluded.tsv;
            RETURN NEW;
          END $$ LANGUAGE plpgsql`,
      pgTrigger,
      pgIndexAll
    ],
    orElse: () => [
      "CREATE VIRTUAL TABLE messages_fts USING fts5(text, content='messages', tokenize='unicode61 remove_diacritics 0')",
      ...sqliteTriggers,
      sqliteIndexAll
    ]
  })
  for (const statement of statements) yield* sql.unsafe(statement)
})

/**
 * Writing the search index whole, for a rebuild: `suspend` runs before the read model is emptied
 * (the triggers stop, the index is emptied, and PostgreSQL's GIN index dropped), `resume` after
 * its last row is written (every message indexed in one statement, the GIN index built whole,
 * the triggers back). Row by row through the triggers the index cost about 65 µs a message on
 * PostgreSQL (a plpgsql trigger and a GIN insert), and emptying a populated read model deleted
 * its entries one by one. Both run in the rebuild's transaction, so a rebuild that fails leaves
 * the index and its triggers as they were. Plain statements, so that the benchmark's floor
 * writes the index the same way.
 */
export const searchIndexWhole = {
  pg: {
    suspend: ["ALTER TABLE messages DISABLE TRIGGER messages_search", "DROP INDEX message_search_tsv", "TRUNCATE message_search"],
    resume: [pgIndexAll, pgIndex, "ALTER TABLE messages ENABLE TRIGGER messages_search"]
  },
  sqlite: {
    suspend: [
      "DROP TRIGGER messages_fts_insert",
      "DROP TRIGGER messages_fts_delete",
      "DROP TRIGGER messages_fts_update",
      "INSERT INTO messages_fts (messages_fts) VALUES ('delete-all')"
    ],
    resume: [sqliteIndexAll, ...sqliteTriggers]
  }
} as const

/** Run `write` (a rebuild's, in its transaction) with the search index written whole after it. */
export const withSearchIndexWhole = <A, E, R>(write: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R | SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const steps = sql.onDialectOrElse({ pg: () => searchIndexWhole.pg, orElse: () => searchIndexWhole.sqlite })
    for (const statement of steps.suspend) yield* sql.unsafe(statement)
    const result = yield* write
    for (const statement of steps.resume) yield* sql.unsafe(statement)
    return result
  })

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
        WHERE x.tsv @@ plainto_tsquery('simple', ${query}) AND ${user}
        ORDER BY m.received_at DESC, m.message_id LIMIT ${options.limit}`,
      orElse: () => sql`SELECT m.message_id AS messageId, m.session_id AS sessionId, m.seq, m.sender AS user, m.text, ${note} AS noteId
        FROM messages_fts f JOIN messages m ON m.rowid = f.rowid
        WHERE messages_fts MATCH ${ftsQuery(query)} AND ${user}
        ORDER BY m.received_at DESC, m.message_id LIMIT ${options.limit}`
    })
    return yield* decodeRows(SearchHit)(matching)
  })

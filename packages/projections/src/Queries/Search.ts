/**
 * Full-text search over message text (a note's body is its messages' text minus cuts, so a word of
 * a body is found through its message). The index follows the `messages` table through triggers
 * the migration creates, so every write the projections make, a rebuild's included, keeps it
 * current: an FTS5 external-content table on SQLite, a `tsvector` with a GIN index on PostgreSQL.
 * Both tokenise the same way (case folded, accents kept), so a query finds the same messages on
 * either backend.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { MessageId, NoteId, SessionId, UserId } from "@verbatim/domain/Ids"
import { Effect, Schema } from "effect"
import { decodeRows, Num } from "./Columns.js"

/** The index and the triggers that keep it (a migration); existing messages are indexed at once. */
export const searchIndex = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql.onDialectOrElse({
    pg: () =>
      Effect.all([
        sql`CREATE TABLE message_search (message_id TEXT PRIMARY KEY, tsv tsvector NOT NULL)`,
        sql`CREATE INDEX message_search_tsv ON message_search USING GIN (tsv)`,
        sql.unsafe(`CREATE FUNCTION message_search_sync() RETURNS trigger AS $$
          BEGIN
            IF TG_OP = 'DELETE' THEN
              DELETE FROM message_search WHERE message_id = OLD.message_id;
              RETURN OLD;
            END IF;
            INSERT INTO message_search (message_id, tsv) VALUES (NEW.message_id, to_tsvector('simple', NEW.text))
              ON CONFLICT (message_id) DO UPDATE SET tsv = excluded.tsv;
            RETURN NEW;
          END $$ LANGUAGE plpgsql`),
        sql`CREATE TRIGGER messages_search AFTER INSERT OR UPDATE OR DELETE ON messages
          FOR EACH ROW EXECUTE FUNCTION message_search_sync()`,
        sql`INSERT INTO message_search (message_id, tsv) SELECT message_id, to_tsvector('simple', text) FROM messages`
      ], { discard: true }),
    orElse: () =>
      Effect.all([
        sql`CREATE VIRTUAL TABLE messages_fts USING fts5(text, content='messages', tokenize='unicode61 remove_diacritics 0')`,
        sql`CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
          INSERT INTO messages_fts (rowid, text) VALUES (new.rowid, new.text); END`,
        sql`CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
          INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.rowid, old.text); END`,
        sql`CREATE TRIGGER messages_fts_update AFTER UPDATE ON messages BEGIN
          INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
          INSERT INTO messages_fts (rowid, text) VALUES (new.rowid, new.text); END`,
        sql`INSERT INTO messages_fts (messages_fts) VALUES ('rebuild')`
      ], { discard: true })
  })
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

/**
 * What the store does for a forgetting beyond appending its events: find what a target holds,
 * rewrite stored payloads in place (the same event at the same position, the words gone), delete
 * the media bytes no kept message uses and the published replay reports that quote the words,
 * and compact the files so no freed page or log frame keeps them. Which forgettings are scrubbed
 * is kept in `forget_scrubs` (not a read model: a rebuild reads the scrubbed log).
 */
import { SqlClient } from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { Event } from "@verbatim/domain/Events"
import type { ForgetTarget } from "@verbatim/domain/Forget/Events"
import { MessageId, NoteId, PersonId, SessionId, UserId } from "@verbatim/domain/Ids"
import { Effect, Schema } from "effect"
import { encode } from "./EventCodec.js"

const Held = Schema.Struct({ message_id: MessageId, session_id: SessionId, user_id: UserId })

/** What a target holds: its user's messages by session, and the people it takes; empty when there is no such thing. */
export interface ForgetScope {
  readonly user: UserId | null
  readonly messages: ReadonlyArray<{ readonly messageId: MessageId; readonly sessionId: SessionId }>
  readonly people: ReadonlyArray<PersonId>
}

const PersonRow = Schema.Struct({ person_id: PersonId, user_id: UserId })

export const scopeOf = (target: ForgetTarget, user: UserId | null) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    switch (target._tag) {
      case "Message": {
        const rows = yield* SqlSchema.findAll({
          Request: MessageId,
          Result: Held,
          execute: (id) =>
            sql`SELECT m.message_id, m.session_id, s.user_id FROM messages m
              JOIN sessions s ON s.session_id = m.session_id WHERE m.message_id = ${id}`
        })(target.messageId)
        return scope(rows[0]?.user_id ?? null, rows, [])
      }
      case "Note": {
        const rows = yield* SqlSchema.findAll({
          Request: NoteId,
          Result: Held,
          execute: (id) =>
            sql`SELECT ns.message_id, n.session_id, n.user_id FROM note_sources ns
              JOIN notes n ON n.note_id = ns.note_id WHERE ns.note_id = ${id} ORDER BY ns.seq`
        })(target.noteId)
        return scope(rows[0]?.user_id ?? null, rows, [])
      }
      case "Person": {
        const people = yield* SqlSchema.findAll({
          Request: PersonId,
          Result: PersonRow,
          execute: (id) => sql`SELECT person_id, user_id FROM people WHERE person_id = ${id} OR merged_into = ${id} ORDER BY person_id`
        })(target.personId)
        const owner = people.find((p) => p.person_id === target.personId)?.user_id ?? null
        if (owner === null) return scope(null, [], [])
        const rows = yield* SqlSchema.findAll({
          Request: PersonId,
          Result: Held,
          execute: (id) =>
            sql`SELECT ns.message_id, n.session_id, n.user_id FROM note_sources ns
              JOIN notes n ON n.note_id = ns.note_id WHERE n.person_id = ${id} ORDER BY n.session_id, ns.seq`
        })(target.personId)
        return scope(owner, rows, people.map((p) => p.person_id))
      }
      case "User": {
        if (user === null) return scope(null, [], [])
        const rows = yield* SqlSchema.findAll({
          Request: UserId,
          Result: Held,
          execute: (u) =>
            sql`SELECT m.message_id, m.session_id, s.user_id FROM messages m
              JOIN sessions s ON s.session_id = m.session_id WHERE s.user_id = ${u} AND m.erased_at IS NULL ORDER BY m.session_id, m.seq`
        })(user)
        const people = yield* SqlSchema.findAll({
          Request: UserId,
          Result: PersonRow,
          execute: (u) => sql`SELECT person_id, user_id FROM people WHERE user_id = ${u} ORDER BY person_id`
        })(user)
        return scope(user, rows, people.map((p) => p.person_id))
      }
    }
  })

const scope = (user: UserId | null, rows: ReadonlyArray<typeof Held.Type>, people: ReadonlyArray<PersonId>): ForgetScope => ({
  user,
  messages: rows.map((r) => ({ messageId: r.message_id, sessionId: r.session_id })),
  people
})

/** The reminders that quote these messages (their streams are scrubbed too). */
export const remindersOf = (messageIds: ReadonlyArray<MessageId>) =>
  Effect.flatMap(SqlClient, (sql) =>
    messageIds.length === 0
      ? Effect.succeed([])
      : Effect.map(sql<{ readonly reminder_id: string }>`SELECT reminder_id FROM reminders WHERE ${sql.in("message_id", messageIds)}`, (rows) =>
        rows.map((r) => r.reminder_id)))

/** Put the event, as it now is, where it was stored: same position, stream and version. */
export const rewrite = (position: number, event: Event) =>
  Effect.flatMap(SqlClient, (sql) => {
    const encoded = encode(event)
    return sql`UPDATE events SET type = ${encoded.type}, schema_version = ${encoded.schemaVersion}, payload = ${encoded.payload}
      WHERE position = ${position}`
  })

/** Delete the stored bytes of these digests that no kept message's media uses any more; how many digests were deleted. */
export const dropBlobs = (digests: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    let dropped = 0
    for (const sha256 of new Set(digests)) {
      const used = yield* sql<{ readonly n: number }>`SELECT COUNT(*) AS n FROM message_media mm JOIN messages m ON m.message_id = mm.message_id
        WHERE mm.sha256 = ${sha256} AND m.erased_at IS NULL`
      if (Number(used[0]?.n ?? 0) > 0) continue
      yield* sql`DELETE FROM media_blob_pieces WHERE sha256 = ${sha256}`
      yield* sql`DELETE FROM media_blobs WHERE sha256 = ${sha256}`
      dropped += 1
    }
    return dropped
  })

/** Delete published replay reports that quote any of these texts (as written or as JSON writes them). */
export const dropReports = (texts: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    for (const text of new Set(texts.filter((t) => t.trim().length > 0))) {
      for (const form of new Set([text, JSON.stringify(text).slice(1, -1)])) {
        yield* sql`DELETE FROM replay_reports WHERE ${sql.onDialectOrElse({ pg: () => sql`strpos(body, ${form}) > 0`, orElse: () => sql`instr(body, ${form}) > 0` })}`
      }
    }
  })

/** Whether a forgetting was scrubbed, and marking it so. */
export const isScrubbed = (forgetId: string) =>
  Effect.flatMap(SqlClient, (sql) => Effect.map(sql<{ readonly forget_id: string }>`SELECT forget_id FROM forget_scrubs WHERE forget_id = ${forgetId}`, (rows) => rows.length > 0))

export const markScrubbed = (forgetId: string, at: number) =>
  Effect.flatMap(SqlClient, (sql) => sql`INSERT INTO forget_scrubs (forget_id, scrubbed_at) VALUES (${forgetId}, ${at}) ON CONFLICT DO NOTHING`)

/**
 * Leave no copy of rewritten or deleted bytes in the files: on SQLite, freed pages zeroed
 * (`secure_delete`), the search index merged, the file rebuilt (`VACUUM`) and the write-ahead log
 * emptied; on PostgreSQL a `VACUUM` of the tables that held the words (`pg_dump` never shows a
 * dead row; the files drop them as the vacuum reuses their space).
 */
export const compact = Effect.flatMap(SqlClient, (sql) =>
  sql.onDialectOrElse({
    pg: () => Effect.asVoid(sql.unsafe("VACUUM events, messages, message_edits, message_media, notes, note_directives, instructions, replies, reminders, people, media_blobs, media_blob_pieces, replay_reports, message_search")),
    orElse: () =>
      Effect.gen(function*() {
        yield* sql.unsafe("PRAGMA secure_delete = ON")
        yield* sql.unsafe("INSERT INTO messages_fts (messages_fts) VALUES ('optimize')")
        yield* sql.unsafe("VACUUM")
        yield* sql.unsafe("PRAGMA wal_checkpoint(TRUNCATE)")
      })
  }))

/** A user's sessions. */
export const sessionsOfUser = (user: UserId) =>
  Effect.flatMap(SqlClient, (sql) =>
    Effect.map(sql<{ readonly session_id: string }>`SELECT session_id FROM sessions WHERE user_id = ${user} ORDER BY session_id`, (rows) =>
      rows.map((r) => r.session_id)))

/** A user's asks (their streams may quote any of the user's messages). */
export const asksOfUser = (user: UserId) =>
  Effect.flatMap(SqlClient, (sql) =>
    Effect.map(sql<{ readonly ask_id: string }>`SELECT ask_id FROM asks WHERE user_id = ${user} ORDER BY ask_id`, (rows) => rows.map((r) => r.ask_id)))

/** The names these people go by and went by (their name now and former names). */
export const namesOf = (people: ReadonlyArray<PersonId>) =>
  Effect.flatMap(SqlClient, (sql) =>
    people.length === 0
      ? Effect.succeed([])
      : Effect.map(sql<{ readonly name: string; readonly former_names: string | null }>`SELECT name, former_names FROM people WHERE ${sql.in("person_id", people)}`, (rows) =>
        rows.flatMap((r) => [r.name, ...(r.former_names === null ? [] : r.former_names.split("\n"))]).filter((n) => n.trim() !== "")))

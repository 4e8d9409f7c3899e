/**
 * Questions asked of the notes, as the answering worker and the pages read them; and the
 * messages a question finds (`askCandidates`), each search bounded by its own `LIMIT` on an
 * index, so finding them costs the same at any size of the log.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { AskCandidate } from "@verbatim/domain/Ask/Candidates"
import { AskQuote, AskVia } from "@verbatim/domain/Events"
import { AskId, MessageId, NoteId, PersonId, Provider, UserId } from "@verbatim/domain/Ids"
import { Effect, Schema } from "effect"
import { column, Json, Num } from "./Columns.js"
import { ftsQuery } from "./Search.js"

export const AskStatus = Schema.Literal("posed", "answered", "failed")

/** One question and where it stands. */
export const AskRow = Schema.Struct({
  askId: column(AskId, "ask_id"),
  user: column(UserId, "user_id"),
  question: Schema.String,
  via: AskVia,
  provider: Schema.NullOr(Provider),
  chat: Schema.NullOr(Schema.String),
  postedAt: column(Schema.String, "posted_at"),
  status: AskStatus,
  quotes: Schema.NullOr(Json(Schema.Array(AskQuote))),
  dropped: Schema.NullOr(Num),
  failure: Schema.NullOr(Schema.String),
  finishedAt: column(Schema.NullOr(Schema.String), "finished_at"),
  /** The quotes the asker confirmed answer it, as `message:start-end`. */
  confirmed: Schema.NullOr(Json(Schema.Array(Schema.String)))
})
export type AskRow = typeof AskRow.Type

const selectAsks = `SELECT ask_id, user_id, question, via, provider, chat, posted_at, status, quotes, dropped, failure, finished_at, confirmed FROM asks`

/** Questions still to answer, or answered in a chat whose reply is not yet queued, oldest first, at most `limit`. */
export const owedAsks = (limit: number) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: Schema.Number,
      Result: AskRow,
      execute: (n) => sql`${sql.literal(selectAsks)} WHERE status = 'posed' OR owed_reply = 1 ORDER BY position LIMIT ${n}`
    })(limit))

/** One question, if there is one. */
export const askRow = (askId: AskId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findOne({ Request: AskId, Result: AskRow, execute: (id) => sql`${sql.literal(selectAsks)} WHERE ask_id = ${id}` })(askId))

/** A user's questions, newest first, at most `limit`. */
export const asksOf = (user: UserId, limit: number) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: Schema.Struct({ user: UserId, limit: Schema.Number }),
      Result: AskRow,
      execute: (r) => sql`${sql.literal(selectAsks)} WHERE user_id = ${r.user} ORDER BY position DESC LIMIT ${r.limit}`
    })({ user, limit }))

const PersonRow = Schema.Struct({
  personId: column(PersonId, "person_id"),
  name: Schema.String,
  mergedInto: column(Schema.NullOr(PersonId), "merged_into"),
  formerNames: column(Schema.NullOr(Schema.String), "former_names")
})

const CandidateRow = Schema.Struct({
  messageId: column(MessageId, "message_id"),
  user: column(UserId, "sender"),
  text: Schema.String,
  receivedAt: column(Schema.String, "received_at"),
  noteId: column(Schema.NullOr(NoteId), "note_id"),
  personId: column(Schema.NullOr(PersonId), "person_id")
})

/** How many messages each search takes: people named, each word, and the newest. */
export const askLimits = { named: 60, perTerm: 20, newest: 20 }

/** Words of a question as they are written, compared without case or accents. */
const folded = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()

/** Whether every word of `name` stands as a word of `question`. */
const names = (question: string, name: string): boolean => {
  const words = new Set(folded(question).match(/[\p{L}\p{N}]+/gu) ?? [])
  const parts = folded(name).match(/[\p{L}\p{N}]+/gu) ?? []
  return parts.length > 0 && parts.every((part) => words.has(part))
}

/**
 * The messages of `user` a question finds: those in notes about the people it names (by their
 * name now or before a rename, or the name of anyone merged into them), the newest holding each of `terms`, and the
 * user's newest; each with the name of the person its note is filed under. Only `user`'s own:
 * their notes' messages (a note holds only its user's), and messages they sent. The notes of the
 * people named are read through the person's index, not by walking all of the user's messages.
 */
export const askCandidates = (user: UserId, question: string, terms: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const people = yield* SqlSchema.findAll({
      Request: UserId,
      Result: PersonRow,
      execute: (u) => sql`SELECT person_id, name, merged_into, former_names FROM people WHERE user_id = ${u}`
    })(user)
    const byId = new Map(people.map((p) => [p.personId, p]))
    /** The person a merge left standing (a chain of merges followed, at most as long as the list). */
    const standing = (id: PersonId): PersonId => {
      let current = id
      for (let hops = 0; hops < people.length; hops++) {
        const next = byId.get(current)?.mergedInto ?? null
        if (next === null) return current
        current = next
      }
      return current
    }
    const knownAs = (p: typeof PersonRow.Type) => [p.name, ...(p.formerNames?.split("\n") ?? [])]
    const named = new Set(people.filter((p) => knownAs(p).some((name) => names(question, name))).map((p) => standing(p.personId)))
    const namedIds = people.filter((p) => named.has(standing(p.personId))).map((p) => p.personId)
    const select = sql`SELECT m.message_id, m.sender, m.text, m.received_at, n.note_id, n.person_id`
    const noteOf = sql`LEFT JOIN note_sources s ON s.message_id = m.message_id LEFT JOIN notes n ON n.note_id = s.note_id`
    const aboutNamed = namedIds.length === 0 ? [] : yield* SqlSchema.findAll({
      Request: Schema.Struct({ user: UserId, people: Schema.Array(PersonId) }),
      Result: CandidateRow,
      execute: (r) =>
        sql`${select}
          FROM notes n JOIN note_sources s ON s.note_id = n.note_id JOIN messages m ON m.message_id = s.message_id
          WHERE ${sql.in("n.person_id", r.people)} AND n.user_id = ${r.user}
          ORDER BY m.received_at DESC LIMIT ${askLimits.named}`
    })({ user, people: namedIds })
    const withWord = SqlSchema.findAll({
      Request: Schema.Struct({ user: UserId, term: Schema.String }),
      Result: CandidateRow,
      execute: (r) =>
        sql.onDialectOrElse({
          pg: () => sql`${select}
            FROM message_search x JOIN messages m ON m.message_id = x.message_id ${noteOf}
            WHERE x.tsv @@ plainto_tsquery('simple', search_fold(${r.term})) AND m.sender = ${r.user}
            ORDER BY m.received_at DESC LIMIT ${askLimits.perTerm}`,
          orElse: () => sql`${select}
            FROM messages_fts f JOIN messages m ON m.rowid = f.rowid ${noteOf}
            WHERE messages_fts MATCH ${ftsQuery(r.term)} AND m.sender = ${r.user}
            ORDER BY f.rowid DESC LIMIT ${askLimits.perTerm}`
        })
    })
    const withWords = yield* Effect.forEach(terms, (term) => withWord({ user, term }))
    const newest = yield* SqlSchema.findAll({
      Request: UserId,
      Result: CandidateRow,
      execute: (u) =>
        sql`${select}
          FROM messages m ${noteOf} WHERE m.sender = ${u} ORDER BY m.received_at DESC LIMIT ${askLimits.newest}`
    })(user)
    const personName = (id: PersonId | null) => (id === null ? null : byId.get(standing(id))?.name ?? null)
    const candidate = (row: typeof CandidateRow.Type, isNamed: boolean): AskCandidate => ({
      messageId: row.messageId,
      user: row.user,
      person: personName(row.personId),
      noteId: row.noteId,
      receivedAt: Date.parse(row.receivedAt),
      text: row.text,
      named: isNamed
    })
    return [
      ...aboutNamed.map((row) => candidate(row, true)),
      ...withWords.flat().map((row) => candidate(row, false)),
      ...newest.map((row) => candidate(row, false))
    ]
  })

const TextRow = Schema.Struct({ messageId: column(MessageId, "message_id"), user: column(UserId, "sender"), text: Schema.String })

/** The messages' senders and current texts (after edits), for checking an answer against what they say now. */
export const currentTexts = (ids: ReadonlyArray<MessageId>) =>
  Effect.flatMap(SqlClient, (sql) =>
    ids.length === 0 ? Effect.succeed([]) : SqlSchema.findAll({
      Request: Schema.Array(MessageId),
      Result: TextRow,
      execute: (list) => sql`SELECT message_id, sender, text FROM messages WHERE ${sql.in("message_id", list)}`
    })(ids))

const QuotedRow = Schema.Struct({
  messageId: column(MessageId, "message_id"),
  receivedAt: column(Schema.String, "received_at"),
  noteId: column(Schema.NullOr(NoteId), "note_id"),
  person: Schema.NullOr(Schema.String)
})
export type QuotedMessage = typeof QuotedRow.Type

/** Where the quoted messages are: when each was received, its note and the person it is filed under (the one a merge left standing). */
export const quotedMessages = (ids: ReadonlyArray<MessageId>) =>
  Effect.flatMap(SqlClient, (sql) =>
    ids.length === 0 ? Effect.succeed([]) : SqlSchema.findAll({
      Request: Schema.Array(MessageId),
      Result: QuotedRow,
      execute: (list) =>
        sql`SELECT m.message_id, m.received_at, n.note_id, COALESCE(into_person.name, p.name) AS person
          FROM messages m LEFT JOIN note_sources s ON s.message_id = m.message_id LEFT JOIN notes n ON n.note_id = s.note_id
            LEFT JOIN people p ON p.person_id = n.person_id LEFT JOIN people into_person ON into_person.person_id = p.merged_into
          WHERE ${sql.in("m.message_id", list)}`
    })(ids))

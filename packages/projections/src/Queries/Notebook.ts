/**
 * A user's notes grouped by whom they are about, with their sources traced to provider messages:
 * what an export writes. Read a page at a time, newest first by keyset on the notes' positions,
 * so a reader holds one page of rows whatever the store holds.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { MessageId, SessionId } from "@verbatim/domain/Ids"
import { NoteId, PersonId, UserId } from "@verbatim/domain/Ids"
import type { DateTime } from "effect"
import { Effect, Schema } from "effect"
import { column, Millis, Num } from "./Columns.js"

/** A message a note was made from, as its provider knows it. */
export interface NotebookSource {
  readonly messageId: MessageId
  readonly seq: number
  readonly provider: string
  readonly providerMessageId: string
  readonly receivedAt: DateTime.Utc
  /** Who the sender forwarded it from; null when it is their own. */
  readonly forwardedFrom: string | null
  /** Where its words end in the note's body (UTF-16 offset); null when none of them is left. */
  readonly bodyEnd: number | null
}

export interface NotebookNote {
  readonly id: NoteId
  readonly sessionId: SessionId
  readonly body: string
  readonly recordedAt: DateTime.Utc
  /** In seq order. */
  readonly sources: ReadonlyArray<NotebookSource>
}

/** The notes about one person, newest first. */
export interface NotebookPerson {
  /** Null for a note about a person who was never added to the user's people. */
  readonly personId: PersonId | null
  readonly name: string
  readonly notes: ReadonlyArray<NotebookNote>
}

export interface Notebook {
  readonly user: UserId
  /** People with notes, in the order they were added (those never added last, by name). */
  readonly people: ReadonlyArray<NotebookPerson>
  /** The user's own notes, about no one, newest first. */
  readonly unattached: ReadonlyArray<NotebookNote>
}

const UserRow = Schema.Struct({ user_id: UserId })
const PersonRow = Schema.Struct({ person_id: PersonId, name: Schema.String })

/** Whose notes a page holds: one of the user's people, a person never added (by the name the notes give), or no one. */
export const NotebookSubject = Schema.Union(
  Schema.TaggedStruct("Person", { user: UserId, personId: PersonId }),
  Schema.TaggedStruct("Named", { user: UserId, name: Schema.String }),
  Schema.TaggedStruct("Unattached", { user: UserId })
)
export type NotebookSubject = typeof NotebookSubject.Type

/** Who a live note is about, and when it was recorded: what sorts a user's notes into pages without reading them. */
export const NotebookOwner = Schema.Struct({
  position: Num,
  personId: column(Schema.NullOr(PersonId), "person_id"),
  ownerKind: column(Schema.String, "owner_kind"),
  ownerName: column(Schema.NullOr(Schema.String), "owner_name"),
  recordedAt: column(Millis, "recorded_at")
})
export type NotebookOwner = typeof NotebookOwner.Type

/** Items of one keyset page, newest first, and the position to read the next page before (null: no more). */
export interface KeysetPage<A> {
  readonly items: ReadonlyArray<A>
  readonly before: number | null
}

/** A keyset page's request: before which position, and how many. */
export const Keyset = { before: Schema.NullOr(Schema.Number), limit: Schema.Number }

/** The page of `items` read with `limit`, given their positions: a full page may have more after it. */
export const keysetPage = <A>(items: ReadonlyArray<A>, positions: ReadonlyArray<number>, limit: number): KeysetPage<A> => ({
  items,
  before: items.length === limit && limit > 0 ? positions[positions.length - 1]! : null
})

/** Users with at least one note, by id. */
export const notebookUsers = Effect.flatMap(SqlClient, (sql) =>
  SqlSchema.findAll({ Request: Schema.Void, Result: UserRow, execute: () => sql`SELECT DISTINCT user_id FROM notes ORDER BY user_id` })(undefined).pipe(
    Effect.map((rows) => rows.map((r) => r.user_id))
  ))

/** A user's people, not merged away, in the order they were added. */
export const notebookPeople = (user: UserId) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: UserId,
      Result: PersonRow,
      execute: (u) => sql`SELECT person_id, name FROM people WHERE user_id = ${u} AND merged_into IS NULL ORDER BY position, person_id`
    })(user)).pipe(Effect.map((rows) => rows.map((r) => ({ personId: r.person_id, name: r.name }))))

/** Whom a user's live notes are about, newest first, `limit` at a time from before `before`. */
export const notebookOwners = (user: UserId, before: number | null, limit: number) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: Schema.Struct({ user: UserId, ...Keyset }),
      Result: NotebookOwner,
      execute: (r) =>
        sql`SELECT n.position, n.person_id, n.owner_kind, n.owner_name, e.recorded_at FROM notes n
          JOIN events e ON e.position = n.position WHERE n.user_id = ${r.user} AND n.discarded_at IS NULL
          ${r.before === null ? sql.literal("") : sql`AND n.position < ${r.before}`} ORDER BY n.position DESC LIMIT ${r.limit}`
    })({ user, before, limit })).pipe(Effect.map((rows) => keysetPage(rows, rows.map((r) => r.position), limit)))

/**
 * The live notes a subject's page holds, as a condition on `notes n`. A person's are found by
 * their id (the index of notes by person); the user's column is compared through `|| ''` so
 * SQLite does not take the index of the user's notes instead and walk all of them.
 */
export const subjectCondition = (sql: SqlClient, subject: typeof NotebookSubject.Encoded, before: number | null) => {
  const whose = subject._tag === "Person"
    ? sql`n.person_id = ${subject.personId} AND n.user_id || '' = ${subject.user} AND n.owner_kind = 'Person'`
    : subject._tag === "Named"
    ? sql`n.user_id = ${subject.user} AND n.person_id IS NULL AND n.owner_kind = 'Person' AND COALESCE(n.owner_name, '') = ${subject.name}`
    : sql`n.user_id = ${subject.user} AND n.owner_kind <> 'Person'`
  return sql`${whose} AND n.discarded_at IS NULL ${before === null ? sql.literal("") : sql`AND n.position < ${before}`}`
}

/** The ids of a subject's live notes, newest first, `limit` at a time from before `before`. */
export const subjectNoteIds = (subject: NotebookSubject, before: number | null, limit: number) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findAll({
      Request: Schema.Struct({ subject: NotebookSubject, ...Keyset }),
      Result: Schema.Struct({ note_id: NoteId, position: Num }),
      execute: (r) =>
        sql`SELECT n.note_id, n.position FROM notes n WHERE ${subjectCondition(sql, r.subject, r.before)}
          ORDER BY n.position DESC LIMIT ${r.limit}`
    })({ subject, before, limit })).pipe(Effect.map((rows) => keysetPage(rows.map((r) => r.note_id), rows.map((r) => r.position), limit)))

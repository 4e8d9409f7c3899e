/**
 * What the API, the web pages and the CLI read to show a user's notebook: people, notes, their
 * audits, questions, search, a session's accounting, messages and plans, a web conversation's replies. Split
 * from the one read model so a reader names only the reads it shows.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import type { Note, Person, Question } from "@verbatim/domain/ApiResponses"
import type { MessageId, NoteId, PersonId, Provider, SessionId, UserId } from "@verbatim/domain/Ids"
import type { MessageKind } from "@verbatim/domain/Message"
import { Context, Effect, Layer } from "effect"
import type { Option } from "effect"
import { EventStore, type StoreError } from "./EventStore.js"
import { runOn } from "./internal/Rows.js"
import { sessionAccounting } from "./Queries/Accounting.js"
import type { SessionAccountingView } from "./Queries/Accounting.js"
import { noteAudit } from "./Queries/Audit.js"
import type { NoteAuditView } from "./Queries/Audit.js"
import * as Lists from "./Queries/Lists.js"
import type { ListOptions, NewestOptions } from "./Queries/Lists.js"
import { notebookUsers, subjectNoteIds } from "./Queries/Notebook.js"
import type { KeysetPage, Notebook as UserNotebook, NotebookNote, NotebookSubject } from "./Queries/Notebook.js"
import { subjectNotePage } from "./Queries/NotebookNotes.js"
import { notebook, notebookPages } from "./Queries/NotebookSubjects.js"
import type { NotebookPages } from "./Queries/NotebookSubjects.js"
import { type ActivityOptions, mergedInto, peopleByActivity, peopleNamed, personNames } from "./Queries/People.js"
import type { PersonNames } from "./Queries/People.js"
import * as Replies from "./Queries/Replies.js"
import type { ConversationReply } from "./Queries/Replies.js"
import * as Search from "./Queries/Search.js"
import type { SearchHit, SearchOptions, SearchPage } from "./Queries/Search.js"
import * as Sessions from "./Queries/Sessions.js"
import type { SessionPlan } from "./Queries/Sessions.js"

export type { ConversationReply, ListOptions, NoteAuditView, PersonNames, SearchHit, SearchOptions, SearchPage, SessionAccountingView, SessionPlan }
export type { PrimaryDisposition } from "./Queries/Accounting.js"
export type { KeysetPage, NotebookNote, NotebookPerson, NotebookSource, NotebookSubject } from "./Queries/Notebook.js"
export type { NotebookPage, NotebookPages } from "./Queries/NotebookSubjects.js"
export type { SourceEdit } from "./Queries/Audit.js"
export type { CurationStep } from "./Queries/Curation.js"

/** A message as a session's page shows it. */
export interface SessionMessage {
  readonly id: MessageId
  readonly seq: number
  readonly text: string
  readonly kind: MessageKind
  /** Who wrote it first, when it was forwarded. */
  readonly forwardedFrom: string | null
}

/** A page of items and the cursor for the next one (null: no more). */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly nextCursor: string | null
}

export class Notebook extends Context.Tag("@verbatim/projections/Notebook")<Notebook, {
  readonly people: (options: ListOptions) => Effect.Effect<Page<Person>, StoreError>
  readonly person: (personId: PersonId) => Effect.Effect<Option.Option<Person>, StoreError>
  /** How many of a person's notes are discarded (their `noteCount` counts the others). */
  readonly discardedCount: (personId: PersonId) => Effect.Effect<number, StoreError>
  /** People not merged away, the one with the newest note first, at most `limit`; only `user`'s when given. */
  readonly peopleByActivity: (options: ActivityOptions) => Effect.Effect<ReadonlyArray<Person>, StoreError>
  /** Every person not merged away (only `user`'s when given), by id, with their name: what finding by name looks through. */
  readonly peopleNamed: (user: UserId | undefined) => Effect.Effect<ReadonlyArray<{ readonly id: PersonId; readonly name: string }>, StoreError>
  /** Whom a person was merged into, when they were. */
  readonly mergedInto: (personId: PersonId) => Effect.Effect<Option.Option<PersonId>, StoreError>
  /** A person's notes newest first, a page at a time; their discarded notes instead when asked. */
  readonly newestNotes: (personId: PersonId, options: NewestOptions) => Effect.Effect<Page<Note>, StoreError>
  /** A user's own notes (about no one; everyone's when no user), newest first, a page at a time; the discarded ones when asked. */
  readonly ownNotes: (user: UserId | undefined, options: NewestOptions) => Effect.Effect<Page<Note>, StoreError>
  /** The names a person had before, and the people merged into them. */
  readonly personNames: (personId: PersonId) => Effect.Effect<PersonNames, StoreError>
  /** None when the person is unknown; their discarded notes instead when `discarded`. */
  readonly notesByPerson: (
    personId: PersonId,
    options: ListOptions & { readonly discarded?: boolean | undefined }
  ) => Effect.Effect<Option.Option<Page<Note>>, StoreError>
  readonly note: (noteId: NoteId) => Effect.Effect<Option.Option<Note>, StoreError>
  readonly noteAudit: (noteId: NoteId) => Effect.Effect<Option.Option<NoteAuditView>, StoreError>
  readonly questions: (
    options: ListOptions & { readonly status?: "open" | "answered" | undefined }
  ) => Effect.Effect<Page<Question>, StoreError>
  /** Users with at least one note, by id. */
  readonly notebookUsers: Effect.Effect<ReadonlyArray<UserId>, StoreError>
  /** Every note of a user grouped by person, newest first, each with its provider messages: all at once, for a few notes. */
  readonly notebook: (user: UserId) => Effect.Effect<UserNotebook, StoreError>
  /** The pages of a user's notebook (whom each is about, its note count and newest time), reading `limit` notes' owners at a time. */
  readonly notebookPages: (user: UserId, limit: number) => Effect.Effect<NotebookPages, StoreError>
  /** The ids of a subject's notes, newest first, `limit` at a time before position `before`. */
  readonly subjectNoteIds: (subject: NotebookSubject, before: number | null, limit: number) => Effect.Effect<KeysetPage<NoteId>, StoreError>
  /** A subject's notes, newest first, each with its provider messages, `limit` at a time before position `before`. */
  readonly subjectNotes: (subject: NotebookSubject, before: number | null, limit: number) => Effect.Effect<KeysetPage<NotebookNote>, StoreError>
  readonly sessionAccounting: (sessionId: SessionId) => Effect.Effect<Option.Option<SessionAccountingView>, StoreError>
  /** A session's messages: current text, in seq order, each with who wrote it first when forwarded. */
  readonly sessionMessages: (sessionId: SessionId) => Effect.Effect<ReadonlyArray<SessionMessage>, StoreError>
  /** The plans recorded for a session, oldest first. */
  readonly sessionPlans: (sessionId: SessionId) => Effect.Effect<ReadonlyArray<SessionPlan>, StoreError>
  /** The newest `limit` replies to a conversation, newest first (the web pages' conversation). */
  readonly conversationReplies: (provider: Provider, chat: string, limit: number) => Effect.Effect<ReadonlyArray<ConversationReply>, StoreError>
  /** Messages matching every word of `query`, newest first, each with its note, a page at a time; only `user`'s when given. */
  readonly search: (query: string, options: SearchOptions) => Effect.Effect<SearchPage, StoreError>
}>() {}

/** Build the notebook's reads over the SqlClient in context (a note's audit reads the log too). */
export const make = Effect.gen(function*() {
  const run = runOn(yield* SqlClient)
  const store = yield* EventStore
  return Notebook.of({
    people: (options) => run(Lists.people(options)),
    person: (personId) => run(Lists.person(personId)),
    discardedCount: (personId) => run(Lists.discardedCount(personId)),
    peopleByActivity: (options) => run(peopleByActivity(options)),
    peopleNamed: (user) => run(peopleNamed(user)),
    mergedInto: (personId) => run(mergedInto(personId)),
    newestNotes: (personId, options) => run(Lists.newestNotes(personId, options)),
    ownNotes: (user, options) => run(Lists.ownNotes(user, options)),
    personNames: (personId) => run(personNames(personId)),
    notesByPerson: (personId, options) => run(Lists.notesByPerson(personId, options)),
    note: (noteId) => run(Lists.note(noteId)),
    noteAudit: (noteId) => run(noteAudit(noteId).pipe(Effect.provideService(EventStore, store))),
    questions: (options) => run(Lists.questions(options)),
    notebookUsers: run(notebookUsers),
    notebook: (user) => run(notebook(user)),
    notebookPages: (user, limit) => run(notebookPages(user, limit)),
    subjectNoteIds: (subject, before, limit) => run(subjectNoteIds(subject, before, limit)),
    subjectNotes: (subject, before, limit) => run(subjectNotePage(subject, before, limit)),
    sessionAccounting: (sessionId) => run(sessionAccounting(sessionId)),
    sessionMessages: (sessionId) => run(Lists.sessionMessages(sessionId)),
    sessionPlans: (sessionId) => run(Sessions.sessionPlans(sessionId)),
    conversationReplies: (provider, chat, limit) => run(Replies.conversationReplies(provider, chat, limit)),
    search: (query, options) => run(Search.search(query, options))
  })
})

/** The notebook's reads on the store's database. */
export const layer: Layer.Layer<Notebook, never, SqlClient | EventStore> = Layer.effect(Notebook, make)

/** Read queries over the projections, for the HTTP API, the CLI and the jobs. */
import { SqlClient } from "@effect/sql/SqlClient"
import type { EventsPage, Note, Person, Question } from "@verbatim/domain/ApiResponses"
import type { MessageId, NoteId, PersonId, Provider, QuestionId, ReplyId, SessionId, UserId } from "@verbatim/domain/Ids"
import type { KnownPerson } from "@verbatim/domain/Session/People"
import type { MessageKind } from "@verbatim/domain/Message"
import { Context, Effect, Layer } from "effect"
import type { DateTime, Option } from "effect"
import { EventStore, type StoreError } from "./EventStore.js"
import { toStoreError } from "./internal/Rows.js"
import { sessionAccounting } from "./Queries/Accounting.js"
import type { SessionAccountingView } from "./Queries/Accounting.js"
import { noteAudit } from "./Queries/Audit.js"
import type { NoteAuditView } from "./Queries/Audit.js"
import * as Jobs from "./Queries/Jobs.js"
import type { QueueDepths, QueuedReply } from "./Queries/Jobs.js"
import * as Lists from "./Queries/Lists.js"
import * as Media from "./Queries/Media.js"
import type { MediaWork } from "./Queries/Media.js"
import { notebook, notebookUsers } from "./Queries/Notebook.js"
import type { Notebook } from "./Queries/Notebook.js"
import { knownPeople, mergedInto, peopleByActivity, personNames } from "./Queries/People.js"
import type { PersonNames } from "./Queries/People.js"
import * as Replies from "./Queries/Replies.js"
import type { ConversationReply } from "./Queries/Replies.js"
import * as Captured from "./Queries/Captured.js"
import type { SentMessage } from "./Queries/Captured.js"
import * as Search from "./Queries/Search.js"
import type { SearchHit } from "./Queries/Search.js"
import * as Sessions from "./Queries/Sessions.js"
import type { Conversation, ConversationSessions, SessionPlan } from "./Queries/Sessions.js"
import type { ListOptions } from "./Queries/Lists.js"

export type { SentMessage }
export type { Conversation, ConversationReply, SessionPlan, ConversationSessions, ListOptions, MediaWork, NoteAuditView, QueueDepths, QueuedReply, SearchHit, SessionAccountingView }
export type { PrimaryDisposition } from "./Queries/Accounting.js"
export type { Notebook, NotebookNote, NotebookPerson, NotebookSource } from "./Queries/Notebook.js"
export type { SourceEdit } from "./Queries/Audit.js"
export type { PersonNames }
export type { CurationStep } from "./Queries/Curation.js"

/** A page of items and the cursor for the next one (null: no more). */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly nextCursor: string | null
}

/** A message as the planner reads it. */
export interface SessionMessage {
  readonly id: MessageId
  readonly seq: number
  readonly text: string
  readonly kind: MessageKind
  /** Who wrote it first, when it was forwarded. */
  readonly forwardedFrom: string | null
}

export class ReadModel extends Context.Tag("@verbatim/projections/ReadModel")<ReadModel, {
  readonly people: (options: ListOptions) => Effect.Effect<Page<Person>, StoreError>
  readonly person: (personId: PersonId) => Effect.Effect<Option.Option<Person>, StoreError>
  /** People not merged away, the one with the newest note first, at most `limit`; only `user`'s when given. */
  readonly peopleByActivity: (options: { readonly user?: UserId | undefined; readonly limit: number }) => Effect.Effect<ReadonlyArray<Person>, StoreError>
  /** Whom a person was merged into, when they were. */
  readonly mergedInto: (personId: PersonId) => Effect.Effect<Option.Option<PersonId>, StoreError>
  /** A person's newest notes first, at most `limit`; their discarded notes instead when `discarded`. */
  readonly newestNotes: (personId: PersonId, limit: number, discarded?: boolean) => Effect.Effect<ReadonlyArray<Note>, StoreError>
  /** A user's own notes (about no one; everyone's when no user), newest first; the discarded ones when `discarded`. */
  readonly ownNotes: (user: UserId | undefined, limit: number, discarded?: boolean) => Effect.Effect<ReadonlyArray<Note>, StoreError>
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
  /** Every note of a user grouped by person, newest first, each with its provider messages. */
  readonly notebook: (user: UserId) => Effect.Effect<Notebook, StoreError>
  readonly sessionAccounting: (sessionId: SessionId) => Effect.Effect<Option.Option<SessionAccountingView>, StoreError>
  readonly sessionMessages: (sessionId: SessionId) => Effect.Effect<ReadonlyArray<SessionMessage>, StoreError>
  /** The plans recorded for a session, oldest first. */
  readonly sessionPlans: (sessionId: SessionId) => Effect.Effect<ReadonlyArray<SessionPlan>, StoreError>
  /**
   * Events after a cursor (the start when none) in the order a catch-up reader follows: at most
   * `limit`, and no more than fit `maxBytes` of payload (unbounded when not given) except that a
   * page always holds at least one event.
   */
  readonly events: (after: string | undefined, limit: number, maxBytes?: number) => Effect.Effect<EventsPage, StoreError>
  // Sessions: which stream a command goes to, and which sessions are owed work
  readonly conversationSessions: (conversation: Conversation) => Effect.Effect<ConversationSessions, StoreError>
  readonly messageSession: (messageId: MessageId) => Effect.Effect<Option.Option<SessionId>, StoreError>
  readonly questionSession: (questionId: QuestionId) => Effect.Effect<Option.Option<SessionId>, StoreError>
  readonly noteSession: (noteId: NoteId) => Effect.Effect<Option.Option<SessionId>, StoreError>
  /** Open sessions whose last message arrived at or before `cutoff` (ISO time). */
  /** Open sessions quiet since `cutoff` (ISO), those on the web pages since `webCutoff`. */
  readonly idleSessions: (cutoff: string, webCutoff: string) => Effect.Effect<ReadonlyArray<SessionId>, StoreError>
  /** Closed sessions with no applied plan and no recorded failure. */
  readonly unplannedSessions: Effect.Effect<ReadonlyArray<SessionId>, StoreError>
  /** A user's sessions whose last planning attempt failed. */
  readonly failedSessions: (user: UserId) => Effect.Effect<ReadonlyArray<SessionId>, StoreError>
  readonly sessionUser: (sessionId: SessionId) => Effect.Effect<Option.Option<UserId>, StoreError>
  /** The user's people in id order, then merged people's names standing for whom they joined. */
  readonly knownPeople: (user: UserId) => Effect.Effect<ReadonlyArray<KnownPerson>, StoreError>
  /** The newest `limit` replies to a conversation, newest first (the web pages' conversation). */
  readonly conversationReplies: (provider: Provider, chat: string, limit: number) => Effect.Effect<ReadonlyArray<ConversationReply>, StoreError>
  /** The id of the newest reply in a chat whose id starts with `prefix`, if any. */
  readonly newestReplyId: (provider: Provider, chat: string, prefix: string) => Effect.Effect<Option.Option<ReplyId>, StoreError>
  /** How many replies in a chat whose id starts with `prefix` were queued since `since` (epoch ms), counting up to `limit`. */
  readonly repliesSince: (provider: Provider, chat: string, prefix: string, since: number, limit: number) => Effect.Effect<number, StoreError>
  // Outbox, replay, health and import
  /** Replies waiting to be sent, oldest first, at most `limit`; their buttons decoded. */
  readonly queuedReplies: (limit: number) => Effect.Effect<ReadonlyArray<QueuedReply>, StoreError>
  /** Closed sessions opened at or after `since` (all when none), in the order they were opened. */
  readonly closedSessions: (since: Option.Option<DateTime.Utc>) => Effect.Effect<ReadonlyArray<SessionId>, StoreError>
  /** A user's contacts recorded before a log position (the people a plan at that position saw), by id. */
  readonly contactsBefore: (
    user: UserId,
    position: number
  ) => Effect.Effect<ReadonlyArray<{ readonly id: PersonId; readonly name: string }>, StoreError>
  /** Attachments with work owed: bytes to fetch or text to read, oldest first, at most `limit`. */
  readonly mediaWork: (limit: number) => Effect.Effect<ReadonlyArray<MediaWork>, StoreError>
  /** The attachments of a message, or of every message of a session, whatever their state. */
  readonly mediaOf: (messageOrSession: MessageId | SessionId) => Effect.Effect<ReadonlyArray<MediaWork>, StoreError>
  /** Replies queued, sessions open, and closed sessions without an applied plan. */
  readonly queueDepths: Effect.Effect<QueueDepths, StoreError>
  /** Messages of closed sessions no plan has filed yet: all of them, or `user`'s. */
  readonly awaitingPlan: (user: UserId | undefined) => Effect.Effect<number, StoreError>
  /** Messages matching every word of `query`, newest first, each with its note; only `user`'s when given. */
  readonly search: (
    query: string,
    options: { readonly user?: UserId | undefined; readonly limit: number }
  ) => Effect.Effect<ReadonlyArray<SearchHit>, StoreError>
  /**
   * A user's messages sent in [from, to) whose sender's own words are exactly `text`, oldest
   * first: an import finds by them an exported message the log already has.
   */
  readonly sentMessages: (
    query: { readonly user: UserId; readonly from: DateTime.Utc; readonly to: DateTime.Utc; readonly text: string }
  ) => Effect.Effect<ReadonlyArray<SentMessage>, StoreError>
  /** The replies the bot sent to a chat in [from, to), as messages: its lines in an export of that chat. */
  readonly sentReplies: (
    query: { readonly provider: Provider; readonly chat: string; readonly from: DateTime.Utc; readonly to: DateTime.Utc }
  ) => Effect.Effect<ReadonlyArray<SentMessage>, StoreError>
  /** Succeeds when the database answers. */
  readonly ping: Effect.Effect<void, StoreError>
}>() {}

/** Build the read model over the SqlClient in context. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient
  const store = yield* EventStore
  const run = <A, E>(effect: Effect.Effect<A, E, SqlClient>): Effect.Effect<A, StoreError> =>
    effect.pipe(
      Effect.provideService(SqlClient, sql),
      Effect.mapError(toStoreError)
    )
  return ReadModel.of({
    people: (options) => run(Lists.people(options)),
    person: (personId) => run(Lists.person(personId)),
    peopleByActivity: (options) => run(peopleByActivity(options)),
    mergedInto: (personId) => run(mergedInto(personId)),
    newestNotes: (personId, limit, discarded) => run(Lists.newestNotes(personId, limit, discarded)),
    ownNotes: (user, limit, discarded) => run(Lists.ownNotes(user, limit, discarded)),
    personNames: (personId) => run(personNames(personId)),
    notesByPerson: (personId, options) => run(Lists.notesByPerson(personId, options)),
    note: (noteId) => run(Lists.note(noteId)),
    noteAudit: (noteId) => run(noteAudit(noteId).pipe(Effect.provideService(EventStore, store))),
    questions: (options) => run(Lists.questions(options)),
    notebookUsers: run(notebookUsers),
    notebook: (user) => run(notebook(user)),
    sessionAccounting: (sessionId) => run(sessionAccounting(sessionId)),
    sessionMessages: (sessionId) => run(Lists.sessionMessages(sessionId)),
    sessionPlans: (sessionId) => run(Sessions.sessionPlans(sessionId)),
    events: (after, limit, maxBytes) => Lists.events(after, limit, maxBytes).pipe(Effect.provideService(EventStore, store)),
    conversationSessions: (conversation) => run(Sessions.conversationSessions(conversation)),
    messageSession: (messageId) => run(Sessions.messageSession(messageId)),
    questionSession: (questionId) => run(Sessions.questionSession(questionId)),
    noteSession: (noteId) => run(Sessions.noteSession(noteId)),
    idleSessions: (cutoff, webCutoff) => run(Sessions.idleSessions(cutoff, webCutoff)),
    unplannedSessions: run(Sessions.unplannedSessions),
    failedSessions: (user) => run(Sessions.failedSessions(user)),
    sessionUser: (sessionId) => run(Sessions.sessionUser(sessionId)),
    knownPeople: (user) => run(knownPeople(user)),
    conversationReplies: (provider, chat, limit) => run(Replies.conversationReplies(provider, chat, limit)),
    newestReplyId: (provider, chat, prefix) => run(Replies.newestReplyId(provider, chat, prefix)),
    repliesSince: (provider, chat, prefix, since, limit) => run(Replies.repliesSince(provider, chat, prefix, since, limit)),
    queuedReplies: (limit) => run(Jobs.queuedReplies(limit)),
    closedSessions: (since) => run(Jobs.closedSessions(since)),
    contactsBefore: (user, position) => run(Jobs.contactsBefore(user, position)),
    mediaWork: (limit) => run(Media.mediaWork(limit)),
    mediaOf: (id) => run(Media.mediaOf(id)),
    queueDepths: run(Jobs.queueDepths),
    awaitingPlan: (user) => run(Jobs.awaitingPlan(user)),
    search: (query, options) => run(Search.search(query, options)),
    sentMessages: (query) => run(Captured.sentMessages(query)),
    sentReplies: (query) => run(Captured.sentReplies(query)),
    ping: run(Jobs.ping)
  })
})

/** The read model on the store's database. */
export const layer: Layer.Layer<ReadModel, never, SqlClient | EventStore> = Layer.effect(ReadModel, make)

/**
 * What capture and the deciders' runner read: which session a conversation, message, question
 * or note goes to, whose a session is, a user's people and contacts, the sessions gone quiet,
 * and what an import finds already captured. Split from the one read model so capture names
 * only the lookups it makes.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import type { MessageId, NoteId, PersonId, Provider, QuestionId, SessionId, UserId } from "@verbatim/domain/Ids"
import type { KnownPerson } from "@verbatim/domain/Session/People"
import { Context, Effect, Layer } from "effect"
import type { DateTime, Option } from "effect"
import type { StoreError } from "./EventStore.js"
import { runOn } from "./internal/Rows.js"
import * as Captured from "./Queries/Captured.js"
import type { SentMessage } from "./Queries/Captured.js"
import { contactsBefore } from "./Queries/Jobs.js"
import { knownPeople } from "./Queries/People.js"
import * as Sessions from "./Queries/Sessions.js"
import type { Conversation, ConversationSessions } from "./Queries/Sessions.js"

export type { Conversation, ConversationSessions, SentMessage }

export class SessionLookups extends Context.Tag("@verbatim/projections/SessionLookups")<SessionLookups, {
  // Which stream a command goes to
  readonly conversationSessions: (conversation: Conversation) => Effect.Effect<ConversationSessions, StoreError>
  readonly messageSession: (messageId: MessageId) => Effect.Effect<Option.Option<SessionId>, StoreError>
  readonly questionSession: (questionId: QuestionId) => Effect.Effect<Option.Option<SessionId>, StoreError>
  readonly noteSession: (noteId: NoteId) => Effect.Effect<Option.Option<SessionId>, StoreError>
  /** Open sessions quiet since `cutoff` (ISO), those on the web pages since `webCutoff`. */
  readonly idleSessions: (cutoff: string, webCutoff: string) => Effect.Effect<ReadonlyArray<SessionId>, StoreError>
  readonly sessionUser: (sessionId: SessionId) => Effect.Effect<Option.Option<UserId>, StoreError>
  /** The user's people in id order, then merged people's names standing for whom they joined. */
  readonly knownPeople: (user: UserId) => Effect.Effect<ReadonlyArray<KnownPerson>, StoreError>
  /** A user's contacts recorded before a log position (the people a plan at that position saw), by id. */
  readonly contactsBefore: (
    user: UserId,
    position: number
  ) => Effect.Effect<ReadonlyArray<{ readonly id: PersonId; readonly name: string }>, StoreError>
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
}>() {}

/** Build the lookups over the SqlClient in context. */
export const make = Effect.map(SqlClient, (sql) => {
  const run = runOn(sql)
  return SessionLookups.of({
    conversationSessions: (conversation) => run(Sessions.conversationSessions(conversation)),
    messageSession: (messageId) => run(Sessions.messageSession(messageId)),
    questionSession: (questionId) => run(Sessions.questionSession(questionId)),
    noteSession: (noteId) => run(Sessions.noteSession(noteId)),
    idleSessions: (cutoff, webCutoff) => run(Sessions.idleSessions(cutoff, webCutoff)),
    sessionUser: (sessionId) => run(Sessions.sessionUser(sessionId)),
    knownPeople: (user) => run(knownPeople(user)),
    contactsBefore: (user, position) => run(contactsBefore(user, position)),
    sentMessages: (query) => run(Captured.sentMessages(query)),
    sentReplies: (query) => run(Captured.sentReplies(query))
  })
})

/** The lookups on the store's database. */
export const layer: Layer.Layer<SessionLookups, never, SqlClient> = Layer.effect(SessionLookups, make)

/**
 * Forgetting: what a user (or the operator) asked to be forgotten, and its effect on each session.
 * Neither holds any of the forgotten text: `Forgotten` says what and when, `MessagesErased` which
 * messages of a session no longer have words. The words themselves are scrubbed from every stored
 * payload that held them (`Redact.ts`), so the log keeps its shape and its books balance.
 */
import { Schema } from "effect"
import { MessageId, NoteId, PersonId, QuestionId, ReplyId, SessionId, UserId } from "../Ids.js"

/** What is forgotten: one note's messages, a person (their notes, names and merged names), one message, or a user's everything. */
export const ForgetTarget = Schema.Union(
  Schema.TaggedStruct("Note", { noteId: NoteId }),
  Schema.TaggedStruct("Person", { personId: PersonId }),
  Schema.TaggedStruct("Message", { messageId: MessageId }),
  Schema.TaggedStruct("User", {})
)
export type ForgetTarget = typeof ForgetTarget.Type

/**
 * A forgetting asked for, on the user's `forget-<user>` stream: what, by whom, how many messages
 * of how many sessions it erases, and the people whose names go with it.
 */
export const Forgotten = Schema.TaggedStruct("Forgotten", {
  forgetId: Schema.String,
  user: UserId,
  target: ForgetTarget,
  by: Schema.Literal("user", "operator"),
  messages: Schema.Finite,
  sessions: Schema.Array(SessionId),
  people: Schema.Array(PersonId),
  forgottenAt: Schema.DateTimeUtc
})

/**
 * Messages of a session whose words are erased: they stay in its accounting as `Erased`, in no
 * note or question. It names what they leave, for the read model: the notes that held them (a
 * note left with none is gone), the questions (one left with none is withdrawn), and the replies
 * whose text quoted them (scrubbed).
 */
export const MessagesErased = Schema.TaggedStruct("MessagesErased", {
  sessionId: SessionId,
  user: UserId,
  forgetId: Schema.String,
  messageIds: Schema.Array(MessageId),
  notes: Schema.Array(NoteId),
  questions: Schema.Array(QuestionId),
  replies: Schema.Array(ReplyId),
  erasedAt: Schema.DateTimeUtc
})

/** A person forgotten on their user's people stream: gone from the list, their names scrubbed. */
export const PersonForgotten = Schema.TaggedStruct("PersonForgotten", {
  personId: PersonId,
  user: UserId,
  forgetId: Schema.String,
  forgottenAt: Schema.DateTimeUtc
})

export const ForgetEvent = Schema.Union(Forgotten, MessagesErased, PersonForgotten)
export type ForgetEvent = typeof ForgetEvent.Type

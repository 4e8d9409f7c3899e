/**
 * The events of one question asked of a user's notes, in its own stream (`ask-<id>`): posed, then
 * answered (with every quote kept and dropped, and what the call cost) or failed. A question is
 * recorded before the model is asked, so a crash, a model that is down or a hold loses nothing:
 * the question stays, with its outcome.
 */
import { Schema } from "effect"
import { TokenUsage } from "../TokenUsage.js"
import { AskId, MessageId, Provider, ReplyId, UserId } from "../Ids.js"

/** Where the question was asked: a chat (whose reply goes back there), the web box, or the API. */
export const AskVia = Schema.Literal("chat", "web", "api")
export type AskVia = typeof AskVia.Type

export const AskPosed = Schema.TaggedStruct("AskPosed", {
  askId: AskId,
  user: UserId,
  question: Schema.String,
  via: AskVia,
  /** The chat the answer goes back to (null on the web and the API). */
  provider: Schema.NullOr(Provider),
  chat: Schema.NullOr(Schema.String),
  postedAt: Schema.DateTimeUtc
})

/** Words an answer shows: a message's characters `start`…`end` (UTF-16 offsets) as they read when it was answered. */
export const AskQuote = Schema.Struct({ messageId: MessageId, start: Schema.Int, end: Schema.Int, text: Schema.String })

/** A quote the model gave that is not the asker's exact words, and why it was dropped. */
export const DroppedAskQuote = Schema.Struct({
  ref: Schema.String,
  text: Schema.String,
  why: Schema.Literal("unknown-ref", "not-theirs", "not-in-message", "empty")
})

export const AskAnswered = Schema.TaggedStruct("AskAnswered", {
  askId: AskId,
  user: UserId,
  /** The messages sent to the model, in order: the request's `m1`, `m2` … */
  sent: Schema.Array(MessageId),
  /** Messages found but left out of the request to fit its budget. */
  left: Schema.Array(MessageId),
  kept: Schema.Array(AskQuote),
  dropped: Schema.Array(DroppedAskQuote),
  model: Schema.String,
  promptVersion: Schema.String,
  promptHash: Schema.String,
  usage: TokenUsage,
  durationMs: Schema.Finite,
  answeredAt: Schema.DateTimeUtc
})

export const AskFailed = Schema.TaggedStruct("AskFailed", {
  askId: AskId,
  user: UserId,
  /** `no-model`, `held`, or the model error's reason (`timeout`, `overloaded`, `decode` …). */
  reason: Schema.String,
  message: Schema.String,
  failedAt: Schema.DateTimeUtc
})

/** The asker confirmed that a quote of the answer answers the question: a label for asking again under another prompt. */
export const AskQuoteConfirmed = Schema.TaggedStruct("AskQuoteConfirmed", {
  askId: AskId,
  user: UserId,
  messageId: MessageId,
  start: Schema.Int,
  end: Schema.Int,
  confirmedAt: Schema.DateTimeUtc
})

/** Every event of an ask's stream. */
export const AskEvent = Schema.Union(AskPosed, AskAnswered, AskFailed, AskQuoteConfirmed)
export type AskEvent = typeof AskEvent.Type

/** The reply that answers a question asked in a chat: one per question, so it is queued once. */
export const askReplyId = (askId: AskId): ReplyId => ReplyId.make(`ask:${askId}`)

/** The question a reply answers, if it is an answer's. */
export const askOfReply = (replyId: string): AskId | null => (replyId.startsWith("ask:") ? AskId.make(replyId.slice(4)) : null)

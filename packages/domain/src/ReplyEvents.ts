/** The events of one outgoing reply's life, in its own stream: queued, then sent or failed. */
import { Schema } from "effect"
import { Provider, QuestionId, ReplyId, UserId } from "./Ids.js"

export const ReplyQueued = Schema.TaggedStruct("ReplyQueued", {
  replyId: ReplyId,
  user: UserId,
  provider: Provider,
  chat: Schema.String,
  text: Schema.String,
  /** Buttons offered with the reply: label and the callback data sent back on a press. */
  buttons: Schema.Array(Schema.Struct({ label: Schema.String, data: Schema.String })),
  questionId: Schema.NullOr(QuestionId)
})

export const ReplySent = Schema.TaggedStruct("ReplySent", {
  replyId: ReplyId,
  providerMessageId: Schema.String,
  sentAt: Schema.DateTimeUtc
})

export const ReplyFailed = Schema.TaggedStruct("ReplyFailed", {
  replyId: ReplyId,
  attempt: Schema.Finite,
  detail: Schema.String,
  final: Schema.Boolean
})

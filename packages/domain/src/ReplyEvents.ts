/** The events of one outgoing reply's life, in its own stream: queued, then sent or failed. */
import { Schema } from "effect"
import { Provider, QuestionId, ReplyId, UserId } from "./Ids.js"

/**
 * An approved WhatsApp message template, by its name and language, with its body's parameters in
 * order: the only message WhatsApp lets a business send more than 24 hours after the user last wrote.
 */
export const ReplyTemplate = Schema.Struct({
  name: Schema.String,
  language: Schema.String,
  parameters: Schema.Array(Schema.String)
})
export type ReplyTemplate = typeof ReplyTemplate.Type

export const ReplyQueued = Schema.TaggedStruct("ReplyQueued", {
  replyId: ReplyId,
  user: UserId,
  provider: Provider,
  chat: Schema.String,
  text: Schema.String,
  /**
   * Buttons offered with the reply: label and the callback data sent back on a press; or, with a
   * `url`, a link the button opens (where the provider has link buttons: Telegram; the reply's text
   * carries the link for the others).
   */
  buttons: Schema.Array(Schema.Struct({ label: Schema.String, data: Schema.String, url: Schema.optionalWith(Schema.String, { exact: true }) })),
  questionId: Schema.NullOr(QuestionId),
  /** Sent as this template instead of `text` (WhatsApp, outside its 24-hour window); `text` stays the reply's words on record. */
  template: Schema.optionalWith(ReplyTemplate, { exact: true })
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

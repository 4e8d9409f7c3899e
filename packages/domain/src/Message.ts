/** A captured message, normalised from whichever provider delivered it. */
import { Schema } from "effect"
import { MessageId, Provider, SessionId, UserId } from "./Ids.js"

export const MessageKind = Schema.Literal("text", "caption", "transcript", "media-without-text")
export type MessageKind = typeof MessageKind.Type

/** Position of a message in its session: 1, 2, 3 … in arrival order. */
export const Seq = Schema.Number.pipe(Schema.int(), Schema.positive())

export class InboundMessage extends Schema.Class<InboundMessage>("InboundMessage")({
  id: MessageId,
  sessionId: SessionId,
  seq: Seq,
  provider: Provider,
  providerMessageId: Schema.String,
  sender: UserId,
  chat: Schema.String,
  text: Schema.String,
  kind: MessageKind,
  /** Display name of the original author when the message was forwarded. */
  forwardedFrom: Schema.NullOr(Schema.String),
  /** Provider message id of the message this one replies to. */
  replyTo: Schema.NullOr(Schema.String),
  receivedAt: Schema.DateTimeUtc
}) {}

/** The part of a message that note assembly reads. */
export interface MessageText {
  readonly id: MessageId
  readonly seq: number
  readonly text: string
}

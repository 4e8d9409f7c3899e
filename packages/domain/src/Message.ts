/** A captured message, normalised from whichever provider delivered it. */
import { Schema } from "effect"
import { Extras } from "./Attachment.js"
import { MessageId, Provider, SessionId, UserId } from "./Ids.js"

/**
 * What the text of a message is: typed text, a caption of its attachments, a transcript, nothing
 * (media nobody has read yet), or a plain rendering of a shared contact, location (or venue) or
 * poll, which carry no text of their own.
 */
export const MessageKind = Schema.Literal("text", "caption", "transcript", "media-without-text", "contact", "location", "poll")
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
  ...Extras,
  receivedAt: Schema.DateTimeUtc,
  /**
   * When the sender sent it, as the provider says (a forward's own send time, an import's
   * timestamp); absent on messages captured before it was kept, whose time is `receivedAt`.
   */
  sentAt: Schema.optionalWith(Schema.DateTimeUtc, { exact: true })
}) {}

/**
 * The field checks of `InboundMessage`, compiled once. The class's own constructor rebuilds its
 * validator on every call because `receivedAt` is a transformation (about 30 µs a message, on
 * the capture path); this one checks the same fields in a few.
 */
const validateInboundMessage = Schema.validateSync(
  Schema.Struct(InboundMessage.fields).annotations({ title: "InboundMessage (Constructor)" })
)

/** A checked `InboundMessage`: throws a `ParseError` on fields the schema refuses, like `InboundMessage.make`. */
export const makeInboundMessage = (fields: ConstructorParameters<typeof InboundMessage>[0]): InboundMessage =>
  new InboundMessage(validateInboundMessage(fields), true)

/** When a message was sent: the provider's time when it was kept, else when it was received. */
export const sentAtOf = (message: Pick<InboundMessage, "sentAt" | "receivedAt">) => message.sentAt ?? message.receivedAt

/** The part of a message that note assembly reads. */
export interface MessageText {
  readonly id: MessageId
  readonly seq: number
  readonly text: string
}

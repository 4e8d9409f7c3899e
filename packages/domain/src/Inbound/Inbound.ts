/** What a webhook body means to us, whichever provider sent it: the items the service acts on. */
import { Schema, Struct } from "effect"
import { Extras } from "../Attachment.js"
import { Provider } from "../Ids.js"
import { notTextIn } from "./bodyShape.js"
import { MessageKind } from "../Message.js"
import { tooLong } from "../MessageLimit.js"

/** A message to capture. Media without a caption is captured with empty text, never dropped. */
export const NewMessage = Schema.TaggedStruct("NewMessage", {
  provider: Provider,
  /** Unique per provider: Telegram `chatId:message_id` (ids are per chat), WhatsApp `wamid`. */
  providerMessageId: Schema.String,
  senderId: Schema.String,
  chatId: Schema.String,
  senderName: Schema.NullOr(Schema.String),
  text: Schema.String,
  kind: MessageKind,
  /** Display name of the original author of a forward; WhatsApp only says that it was forwarded. */
  forwardedFrom: Schema.NullOr(Schema.String),
  /** Provider message id of the message this one replies to. */
  replyTo: Schema.NullOr(Schema.String),
  ...Extras,
  sentAt: Schema.DateTimeUtc
})
export type NewMessage = typeof NewMessage.Type

/**
 * A message as it reads after its sender edited it, identified by its provider message id: new
 * text for the message captured earlier, or, when an edit overtakes its message, the message
 * itself. `sentAt` is the original send time where the provider says it, else the edit's.
 */
export const Edit = Schema.TaggedStruct("Edit", {
  ...Struct.omit(NewMessage.fields, "_tag"),
  /** Dedupe key of the edit itself: Telegram `edit:<update_id>`, WhatsApp `edit:<wamid of the edit>`. */
  editKey: Schema.String,
  editedAt: Schema.DateTimeUtc
})
export type Edit = typeof Edit.Type

/** The message an edit describes, as a new message to capture. */
export const editedMessage = ({ editKey: _key, editedAt: _at, ...fields }: Edit): NewMessage => ({ ...fields, _tag: "NewMessage" })

/** A button press answering a question we asked. */
export const Answer = Schema.TaggedStruct("Answer", {
  provider: Provider,
  /** Dedupe key: Telegram `callback:<id>`, WhatsApp the `wamid` of the reply message. */
  providerMessageId: Schema.String,
  senderId: Schema.String,
  chatId: Schema.String,
  /** Telegram callback query id, to acknowledge the press; WhatsApp has none. */
  callbackId: Schema.NullOr(Schema.String),
  /** The id of the message whose button was pressed (Telegram), so its buttons can be taken away once answered. */
  askedIn: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null, exact: true }),
  /** The button payload we attached when asking. */
  data: Schema.String,
  answeredAt: Schema.DateTimeUtc
})
export type Answer = typeof Answer.Type

/** Something acknowledged and not acted on (statuses, reactions, update kinds we do not handle). */
export const Ignored = Schema.TaggedStruct("Ignored", {
  provider: Provider,
  /** What was ignored, short and stable (`my_chat_member`, `status:read`, `reaction`): what logs and metrics count by. */
  kind: Schema.String,
  reason: Schema.String
})
export type Ignored = typeof Ignored.Type

export const Inbound = Schema.Union(NewMessage, Edit, Answer, Ignored)
export type Inbound = typeof Inbound.Type

/**
 * Why an item cannot be stored exactly (a string of it holding a lone surrogate or U+0000), or
 * is too long to be one message (`MessageLimit`), or null. Every string an item carries is checked, as most reach the log, a reply or a key; an
 * update the service ignores is acknowledged whatever its body holds.
 */
export const unstorable = (item: Inbound): string | null => {
  if (item._tag === "Ignored") return null
  const fields: ReadonlyArray<readonly [string, unknown]> = [
    ...Object.entries(item),
    ...(item._tag === "Answer" ? [] : [
      ...item.attachments.flatMap((a, i) => Object.entries(a).map(([k, v]) => [`attachments[${i}].${k}`, v] as const)),
      ...item.links.map((l, i) => [`links[${i}].url`, l.url] as const)
    ])
  ]
  for (const [field, value] of fields) {
    const found = typeof value === "string" ? notTextIn(value) : null
    if (found !== null) return `${field} of ${item.provider} message ${item.providerMessageId} contains ${found}, which is not text`
  }
  const overLong = item._tag === "Answer" ? null : tooLong(item.text)
  return overLong === null ? null : `text of ${item.provider} message ${item.providerMessageId} ${overLong}`
}

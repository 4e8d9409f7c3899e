/** Telegram `Update` → what it means to us. Pure. */
import type { DateTime } from "effect"
import { type Attachment, attachment, type AttachmentKind, type Link } from "../Attachment.js"
import type { Ignored, Inbound, NewMessage } from "./Inbound.js"
import type { MessageKind } from "../Message.js"
import { contactText, fullName, locationText, pollText } from "./Rendered.js"
import { chatName, type Message, type MessageOrigin, type Update, userName } from "./Telegram.js"
import { utcOf } from "../UnixSeconds.js"

const ignored = (kind: string, reason: string): Ignored => ({ _tag: "Ignored", provider: "telegram", kind, reason })

/** Message ids are per chat, so the chat id is part of the key. */
const messageKey = (chatId: number, messageId: number) => `${chatId}:${messageId}`

/** The author named by `forward_origin`, or null for an origin type that names no one we know how to read. */
const originName = (origin: MessageOrigin): string | null => {
  const chat = origin.sender_chat ?? origin.chat
  const base = origin.sender_user !== undefined
    ? userName(origin.sender_user)
    : origin.sender_user_name ?? (chat === undefined ? null : chatName(chat))
  if (base === null || origin.author_signature === undefined) return base
  return `${base} (${origin.author_signature})`
}

/**
 * `forward_origin` replaced the legacy fields in Bot API 7.0; both may be present, the new one
 * wins. A forward whose author cannot be named is still marked as forwarded.
 */
const forwardedFrom = (message: Message): string | null => {
  const origin = message.forward_origin
  const named = (origin === undefined ? null : originName(origin)) ??
    (message.forward_from !== undefined ? userName(message.forward_from) : null) ??
    (message.forward_from_chat !== undefined ? chatName(message.forward_from_chat) : null) ??
    message.forward_sender_name ?? null
  return named ?? (origin === undefined ? null : "forwarded")
}

type File = NonNullable<Message["voice"]>

const attachmentOf = (kind: AttachmentKind, file: File): Attachment =>
  attachment(kind, file.file_id, {
    uniqueId: file.file_unique_id ?? null,
    mimeType: file.mime_type ?? null,
    size: file.file_size ?? null,
    duration: file.duration ?? null,
    width: file.width ?? null,
    height: file.height ?? null,
    fileName: file.file_name ?? null
  })

const fileFields = ["voice", "audio", "video", "video_note", "animation", "document", "sticker"] as const

/** The attachments: the largest size of a photo, and every file-bearing field present (an animation also comes as a document). */
const attachmentsOf = (message: Message): ReadonlyArray<Attachment> => {
  const largestPhoto = message.photo?.[message.photo.length - 1]
  return [
    ...(largestPhoto === undefined ? [] : [attachmentOf("photo", largestPhoto)]),
    ...fileFields.flatMap((kind) => (message[kind] === undefined ? [] : [attachmentOf(kind, message[kind])]))
  ]
}

/** The URLs behind `text_link` spans of the text or caption. */
const linksOf = (entities: Message["entities"]): ReadonlyArray<Link> =>
  (entities ?? []).flatMap((e) =>
    e.type === "text_link" && e.url !== undefined && e.length > 0 ? [{ offset: e.offset, length: e.length, url: e.url }] : []
  )

/** What the message says: its text, its caption, or the rendering of what it shared; null for nothing we capture. */
const said = (message: Message, attachments: ReadonlyArray<Attachment>): { readonly kind: MessageKind; readonly text: string } | null => {
  if (message.text !== undefined) return { kind: "text", text: message.text }
  if (message.caption !== undefined) return { kind: "caption", text: message.caption }
  if (message.contact !== undefined) {
    const c = message.contact
    return { kind: "contact", text: contactText(fullName([c.first_name, c.last_name]), [c.phone_number]) }
  }
  if (message.venue !== undefined) {
    const v = message.venue
    return { kind: "location", text: locationText(v.location.latitude, v.location.longitude, [v.title, v.address]) }
  }
  if (message.location !== undefined) return { kind: "location", text: locationText(message.location.latitude, message.location.longitude) }
  if (message.poll !== undefined) return { kind: "poll", text: pollText(message.poll.question, message.poll.options.map((o) => o.text)) }
  if (attachments.length > 0) return { kind: "media-without-text", text: "" }
  return null
}

/** Fields any message may carry whatever its content: never what names its kind. */
const envelope = new Set([
  "message_id", "from", "chat", "date", "edit_date", "sender_chat", "message_thread_id", "is_topic_message",
  "reply_to_message", "external_reply", "quote", "via_bot", "author_signature", "has_protected_content",
  "is_automatic_forward", "is_from_offline", "media_group_id", "reply_markup", "business_connection_id", "effect_id"
])

/** The kind of a message we do not capture, named by its first content field, for logs and counts. */
const otherKind = (message: Message): string =>
  Object.keys(message).find((key) => !envelope.has(key) && !key.startsWith("forward_")) ?? "empty"

const newMessage = (message: Message): NewMessage | Ignored => {
  const attachments = attachmentsOf(message)
  const body = said(message, attachments)
  if (message.from === undefined) return ignored("anonymous", "message without a sender (anonymous admin or channel)")
  if (body === null) {
    const kind = otherKind(message)
    return ignored(kind, `message of a kind not captured: ${kind}`)
  }
  return {
    _tag: "NewMessage",
    provider: "telegram",
    providerMessageId: messageKey(message.chat.id, message.message_id),
    senderId: String(message.from.id),
    chatId: String(message.chat.id),
    senderName: userName(message.from),
    text: body.text,
    kind: body.kind,
    forwardedFrom: forwardedFrom(message),
    replyTo: message.reply_to_message === undefined ? null : messageKey(message.chat.id, message.reply_to_message.message_id),
    attachments,
    links: linksOf(message.text !== undefined ? message.entities : message.caption_entities),
    mediaGroup: message.media_group_id ?? null,
    sentAt: utcOf(message.date)
  }
}

/** An `edited_message` is the whole message as it now reads; its update id names the edit. */
const edit = (message: Message, updateId: number): Inbound => {
  const edited = newMessage(message)
  return edited._tag === "Ignored"
    ? { ...edited, kind: `edit:${edited.kind}`, reason: `edit of a ${edited.reason}` }
    : { ...edited, _tag: "Edit", editKey: `edit:${updateId}`, editedAt: utcOf(message.edit_date ?? message.date) }
}

/**
 * What one Telegram update means: exactly one item. `now` stamps button presses, which carry
 * no time of their own.
 */
export const normaliseTelegram = (update: Update, now: DateTime.Utc): ReadonlyArray<Inbound> => {
  if (update.message !== undefined) return [newMessage(update.message)]
  if (update.edited_message !== undefined) return [edit(update.edited_message, update.update_id)]
  const query = update.callback_query
  if (query !== undefined) {
    if (query.data === undefined) return [ignored("callback_game", "callback query without data (game)")]
    return [{
      _tag: "Answer",
      provider: "telegram",
      providerMessageId: `callback:${query.id}`,
      senderId: String(query.from.id),
      // A press on an inline-mode message has no chat; the presser's private chat has their id.
      chatId: String(query.message?.chat.id ?? query.from.id),
      callbackId: query.id,
      askedIn: query.message === undefined ? null : String(query.message.message_id),
      data: query.data,
      answeredAt: now
    }]
  }
  const kind = Object.keys(update).find((key) => key !== "update_id")
  return [kind === undefined ? ignored("empty", "empty update") : ignored(kind, `update kind not handled: ${kind}`)]
}

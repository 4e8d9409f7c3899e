/** Telegram `Update` → what it means to us. Pure. */
import type { DateTime } from "effect"
import type { Ignored, Inbound, Media, NewMessage } from "./Inbound.js"
import type { MessageKind } from "../Message.js"
import { chatName, type Message, type MessageOrigin, type Update, userName } from "./Telegram.js"
import { utcOf } from "../UnixSeconds.js"

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

/** The attachment, if any: the largest photo size, else the first file-bearing field present. */
const mediaOf = (message: Message): Media | null => {
  const largestPhoto = message.photo?.[message.photo.length - 1]
  if (largestPhoto !== undefined) return { type: "photo", fileId: largestPhoto.file_id }
  const fields = ["voice", "audio", "video", "video_note", "animation", "document", "sticker"] as const
  for (const type of fields) {
    const file = message[type]
    if (file !== undefined) return { type, fileId: file.file_id }
  }
  return null
}

const content = (message: Message): { readonly kind: MessageKind; readonly text: string; readonly media: Media | null } | null => {
  const media = mediaOf(message)
  if (message.text !== undefined) return { kind: "text", text: message.text, media }
  if (message.caption !== undefined) return { kind: "caption", text: message.caption, media }
  if (media !== null) return { kind: "media-without-text", text: "", media }
  return null
}

const newMessage = (message: Message): NewMessage | Ignored => {
  const body = content(message)
  if (message.from === undefined) return { _tag: "Ignored", reason: "message without a sender (anonymous admin or channel)" }
  if (body === null) return { _tag: "Ignored", reason: "message without text or media (service message, location, contact …)" }
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
    media: body.media,
    sentAt: utcOf(message.date)
  }
}

/** An `edited_message` is the whole message as it now reads; its update id names the edit. */
const edit = (message: Message, updateId: number): Inbound => {
  const edited = newMessage(message)
  return edited._tag === "Ignored"
    ? { _tag: "Ignored", reason: `edit of a ${edited.reason}` }
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
    if (query.data === undefined) return [{ _tag: "Ignored", reason: "callback query without data (game)" }]
    return [{
      _tag: "Answer",
      provider: "telegram",
      providerMessageId: `callback:${query.id}`,
      senderId: String(query.from.id),
      // A press on an inline-mode message has no chat; the presser's private chat has their id.
      chatId: String(query.message?.chat.id ?? query.from.id),
      callbackId: query.id,
      data: query.data,
      answeredAt: now
    }]
  }
  const kind = Object.keys(update).find((key) => key !== "update_id")
  return [{ _tag: "Ignored", reason: kind === undefined ? "empty update" : `update kind not handled: ${kind}` }]
}

/** WhatsApp Cloud API body → what it means to us, one item per message and status. Pure. */
import type { Inbound, Media } from "./Inbound.js"
import type { MessageKind } from "../Message.js"
import { utcOf } from "../UnixSeconds.js"
import type { Body, Contact, EditedContent, Message, Value } from "./WhatsApp.js"

type Content = { readonly kind: MessageKind; readonly text: string; readonly media: Media | null }

const mediaTypes = ["image", "video", "document", "audio", "sticker"] as const

/** Text, a caption, or media awaiting transcription; null for content we do not capture. */
const content = (message: EditedContent): Content | null => {
  if (message.text !== undefined) return { kind: "text", text: message.text.body, media: null }
  for (const type of mediaTypes) {
    const file = message[type]
    if (file !== undefined) {
      const media = { type, fileId: file.id }
      return file.caption === undefined
        ? { kind: "media-without-text", text: "", media }
        : { kind: "caption", text: file.caption, media }
    }
  }
  return null
}

/** WhatsApp never names a forward's author, only that it was forwarded (often). */
const forwardedFrom = (message: EditedContent): string | null => {
  if (message.context?.frequently_forwarded === true) return "frequently forwarded"
  if (message.context?.forwarded === true) return "forwarded"
  return null
}

const normaliseMessage = (message: Message, contacts: ReadonlyArray<Contact>): Inbound => {
  const base = { provider: "whatsapp", senderId: message.from, chatId: message.from } as const
  const senderName = contacts.find((contact) => contact.wa_id === message.from)?.profile?.name ?? null
  if (message.edit !== undefined) {
    const edited = message.edit.message
    const body = content(edited)
    if (body === null) return { _tag: "Ignored", reason: `edit to a ${edited.type} message` }
    const editedAt = utcOf(message.timestamp)
    return {
      _tag: "Edit",
      ...base,
      providerMessageId: message.edit.original_message_id,
      senderName,
      ...body,
      forwardedFrom: forwardedFrom(edited),
      replyTo: edited.context?.id ?? null,
      // The edit does not say when the original was sent.
      sentAt: editedAt,
      editKey: `edit:${message.id}`,
      editedAt
    }
  }
  const reply = message.interactive?.button_reply ?? message.interactive?.list_reply
  const data = reply?.id ?? message.button?.payload
  if (data !== undefined) {
    return { _tag: "Answer", ...base, providerMessageId: message.id, callbackId: null, data, answeredAt: utcOf(message.timestamp) }
  }
  const body = content(message)
  if (body === null) {
    const detail = message.interactive === undefined ? message.type : `interactive ${message.interactive.type}`
    return { _tag: "Ignored", reason: `message type not handled: ${detail}` }
  }
  return {
    _tag: "NewMessage",
    ...base,
    providerMessageId: message.id,
    senderName,
    text: body.text,
    kind: body.kind,
    forwardedFrom: forwardedFrom(message),
    // Forwarded messages carry a context without an id; only a quoted message has one.
    replyTo: message.context?.id ?? null,
    media: body.media,
    sentAt: utcOf(message.timestamp)
  }
}

const normaliseValue = (value: Value): ReadonlyArray<Inbound> => [
  ...(value.messages ?? []).map((message) => normaliseMessage(message, value.contacts ?? [])),
  ...(value.statuses ?? []).map((status): Inbound => ({ _tag: "Ignored", reason: `status update: ${status.status}` }))
]

/**
 * What one WhatsApp body means: one item per message and per status, in body order, walking
 * every entry and change (Meta batches them). A change of another field, or with neither
 * messages nor statuses, is one `Ignored`.
 */
export const normaliseWhatsApp = (body: Body): ReadonlyArray<Inbound> =>
  body.entry.flatMap((entry) =>
    entry.changes.flatMap((change): ReadonlyArray<Inbound> => {
      if (change.field !== "messages") return [{ _tag: "Ignored", reason: `change field not handled: ${change.field}` }]
      const items = normaliseValue(change.value)
      return items.length === 0 ? [{ _tag: "Ignored", reason: "change without messages or statuses" }] : items
    })
  )

/** WhatsApp Cloud API body → what it means to us, one item per message and status. Pure. */
import { type Attachment, attachment } from "../Attachment.js"
import type { Inbound } from "./Inbound.js"
import type { MessageKind } from "../Message.js"
import { utcOf } from "../UnixSeconds.js"
import { contactText, locationText } from "./Rendered.js"
import type { Body, Contact, EditedContent, Media, Message, Value } from "./WhatsApp.js"

type Content = {
  readonly kind: MessageKind
  readonly text: string
  readonly attachments: ReadonlyArray<Attachment>
}

const mediaTypes = ["image", "video", "document", "audio", "sticker"] as const

const attachmentOf = (type: typeof mediaTypes[number], file: Media): Attachment =>
  attachment(type === "audio" && file.voice === true ? "voice" : type, file.id, {
    uniqueId: file.sha256 ?? null,
    mimeType: file.mime_type ?? null,
    fileName: file.filename ?? null
  })

/** Text, a caption, an attachment awaiting transcription, or the rendering of a shared contact or location; null otherwise. */
const content = (message: EditedContent): Content | null => {
  if (message.text !== undefined) return { kind: "text", text: message.text.body, attachments: [] }
  for (const type of mediaTypes) {
    const file = message[type]
    if (file !== undefined) {
      const attachments = [attachmentOf(type, file)]
      return file.caption === undefined
        ? { kind: "media-without-text", text: "", attachments }
        : { kind: "caption", text: file.caption, attachments }
    }
  }
  if (message.contacts !== undefined && message.contacts.length > 0) {
    const cards = message.contacts.map((card) =>
      contactText(card.name.formatted_name, (card.phones ?? []).flatMap((p) => (p.phone === undefined ? [] : [p.phone])))
    )
    return { kind: "contact", text: cards.join("\n"), attachments: [] }
  }
  if (message.location !== undefined) {
    const { address, latitude, longitude, name } = message.location
    return { kind: "location", text: locationText(latitude, longitude, [name, address]), attachments: [] }
  }
  return null
}

const ignored = (kind: string, reason: string): Inbound => ({ _tag: "Ignored", provider: "whatsapp", kind, reason })

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
    if (body === null) return ignored(`edit:${edited.type}`, `edit to a ${edited.type} message`)
    const editedAt = utcOf(message.timestamp)
    return {
      _tag: "Edit",
      ...base,
      providerMessageId: message.edit.original_message_id,
      senderName,
      text: body.text,
      kind: body.kind,
      attachments: body.attachments,
      links: [],
      mediaGroup: null,
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
    return { _tag: "Answer", ...base, providerMessageId: message.id, callbackId: null, askedIn: null, data, answeredAt: utcOf(message.timestamp) }
  }
  const body = content(message)
  if (body === null) {
    const detail = message.interactive === undefined ? message.type : `interactive ${message.interactive.type}`
    return ignored(message.interactive === undefined ? message.type : `interactive:${message.interactive.type}`, `message type not handled: ${detail}`)
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
    attachments: body.attachments,
    links: [],
    mediaGroup: null,
    sentAt: utcOf(message.timestamp)
  }
}

const normaliseValue = (value: Value): ReadonlyArray<Inbound> => [
  ...(value.messages ?? []).map((message) => normaliseMessage(message, value.contacts ?? [])),
  ...(value.statuses ?? []).map((status): Inbound => ignored(`status:${status.status}`, `status update: ${status.status}`))
]

/**
 * What one WhatsApp body means: one item per message and per status, in body order, walking
 * every entry and change (Meta batches them). A change of another field, or with neither
 * messages nor statuses, is one `Ignored`.
 */
export const normaliseWhatsApp = (body: Body): ReadonlyArray<Inbound> =>
  body.entry.flatMap((entry) =>
    entry.changes.flatMap((change): ReadonlyArray<Inbound> => {
      if (change.field !== "messages") return [ignored(`field:${change.field}`, `change field not handled: ${change.field}`)]
      const items = normaliseValue(change.value)
      return items.length === 0 ? [ignored("empty", "change without messages or statuses")] : items
    })
  )

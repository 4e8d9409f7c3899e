/** Schemas of the WhatsApp Cloud API webhook POST bodies (`messages` field) the webhook reads. */
import { Schema } from "effect"
import { UnixSecondsFromString } from "../UnixSeconds.js"

/** Absent or present, never `undefined`: JSON has no undefined, and it keeps decode errors to the point. */
const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

// Structs ignore fields they do not name, so new Cloud API fields pass; message types we do
// not handle decode too (only `type`, `from`, `id`, `timestamp` are required of them). A type
// we do handle must carry its payload, checked by the filter on `Message`.

/** Media attachment: image, video, document, audio (voice notes are audio with `voice: true`), sticker. */
export const Media = Schema.Struct({
  id: Schema.String,
  mime_type: optional(Schema.String),
  sha256: optional(Schema.String),
  filename: optional(Schema.String),
  /** An audio message recorded in the app (a voice note), not a forwarded audio file. */
  voice: optional(Schema.Boolean),
  caption: optional(Schema.String)
})
export type Media = typeof Media.Type

/** `context`: the message replied to (`id`) and forwarding flags. */
export const Context = Schema.Struct({
  id: optional(Schema.String),
  from: optional(Schema.String),
  forwarded: optional(Schema.Boolean),
  frequently_forwarded: optional(Schema.Boolean)
})
export type Context = typeof Context.Type

/** A shared contact card (one message may share several). */
export const ContactCard = Schema.Struct({
  name: Schema.Struct({ formatted_name: Schema.String }),
  phones: optional(Schema.Array(Schema.Struct({ phone: optional(Schema.String), wa_id: optional(Schema.String) })))
})
export type ContactCard = typeof ContactCard.Type

export const Location = Schema.Struct({
  latitude: Schema.Number,
  longitude: Schema.Number,
  name: optional(Schema.String),
  address: optional(Schema.String)
})

const Reply = Schema.Struct({ id: Schema.String, title: Schema.String })

/** A press on a reply button or a list row we sent; other interactive kinds are kept by type only. */
export const Interactive = Schema.Struct({
  type: Schema.String,
  button_reply: optional(Reply),
  list_reply: optional(Reply)
})
export type Interactive = typeof Interactive.Type

/** The message content fields, shared by a message and by the new version inside an `edit`. */
const contentFields = {
  type: Schema.String,
  context: optional(Context),
  text: optional(Schema.Struct({ body: Schema.String })),
  image: optional(Media),
  video: optional(Media),
  document: optional(Media),
  audio: optional(Media),
  sticker: optional(Media),
  contacts: optional(Schema.Array(ContactCard)),
  location: optional(Location),
  interactive: optional(Interactive),
  /** A quick-reply button of a template message. */
  button: optional(Schema.Struct({ payload: Schema.String, text: Schema.String })),
  reaction: optional(Schema.Struct({ message_id: Schema.String }))
}

const payloadTypes = new Set([
  "text",
  "image",
  "video",
  "document",
  "audio",
  "sticker",
  "contacts",
  "location",
  "interactive",
  "button",
  "reaction",
  "edit"
])

/** A handled `type` whose payload field (named like the type) is missing. */
const missingPayload = (message: { readonly type: string }) =>
  payloadTypes.has(message.type) && !(message.type in message)
    ? { path: [message.type], message: `is missing (required by message type "${message.type}")` }
    : undefined

/** The new content of an edited message (no sender, id or timestamp of its own). */
export const EditedContent = Schema.Struct(contentFields).pipe(Schema.filter(missingPayload))
export type EditedContent = typeof EditedContent.Type

/** One inbound message. `timestamp` is unix seconds as a string on the wire. */
export const Message = Schema.Struct({
  ...contentFields,
  from: Schema.String,
  id: Schema.String,
  timestamp: UnixSecondsFromString,
  edit: optional(Schema.Struct({ original_message_id: Schema.String, message: EditedContent }))
}).pipe(Schema.filter(missingPayload)).annotations({ title: "a WhatsApp message object" })
export type Message = typeof Message.Type

/** A sender's profile, matched to messages by `wa_id`. */
export const Contact = Schema.Struct({
  wa_id: Schema.String,
  profile: optional(Schema.Struct({ name: Schema.String }))
})
export type Contact = typeof Contact.Type

/** Delivery status of a message we sent; acknowledged and ignored. */
export const Status = Schema.Struct({ id: Schema.String, status: Schema.String })
export type Status = typeof Status.Type

export const Value = Schema.Struct({
  contacts: optional(Schema.Array(Contact)),
  messages: optional(Schema.Array(Message)),
  statuses: optional(Schema.Array(Status))
})
export type Value = typeof Value.Type

export const Change = Schema.Struct({ field: Schema.String, value: Value })
export type Change = typeof Change.Type

export const Entry = Schema.Struct({ id: Schema.String, changes: Schema.Array(Change) })
export type Entry = typeof Entry.Type

/** One webhook body; Meta batches several entries, changes and messages into one POST. */
export const Body = Schema.Struct({
  object: Schema.String,
  entry: Schema.Array(Entry)
}).annotations({ title: "a WhatsApp webhook object" })
export type Body = typeof Body.Type

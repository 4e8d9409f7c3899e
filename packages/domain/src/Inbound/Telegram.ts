/** Schemas of the Telegram Bot API `Update` bodies the webhook reads. */
import { Schema } from "effect"
import { UnixSeconds } from "../UnixSeconds.js"
import { IntegerId } from "./IntegerId.js"

/** Absent or present, never `undefined`: JSON has no undefined, and it keeps decode errors to the point. */
const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

// Every struct ignores fields it does not name (Schema's default), so new Bot API fields pass;
// the fields we do read are required with their exact types, so a malformed body fails loudly.
// Ids become keys, so each must be an integer a double holds exactly (`IntegerId`).

/** A Telegram user; `is_bot` is absent in older samples, so it is not required. */
export const User = Schema.Struct({
  id: IntegerId,
  first_name: Schema.String,
  last_name: optional(Schema.String),
  username: optional(Schema.String)
})
export type User = typeof User.Type

/** A chat: private chats carry names, groups and channels a title. */
export const Chat = Schema.Struct({
  id: IntegerId,
  type: Schema.String,
  title: optional(Schema.String),
  first_name: optional(Schema.String),
  last_name: optional(Schema.String),
  username: optional(Schema.String)
})
export type Chat = typeof Chat.Type

/** Any file-bearing attachment (a photo size, voice, audio, video, document, sticker …). */
export const File = Schema.Struct({
  file_id: Schema.String,
  file_unique_id: optional(Schema.String),
  file_size: optional(Schema.Number),
  mime_type: optional(Schema.String),
  file_name: optional(Schema.String),
  duration: optional(Schema.Number),
  width: optional(Schema.Number),
  height: optional(Schema.Number)
})
export type File = typeof File.Type

/** A span of the text with a meaning; only `text_link`'s URL is kept (the rest is in the text). */
export const Entity = Schema.Struct({
  type: Schema.String,
  offset: Schema.Number,
  length: Schema.Number,
  url: optional(Schema.String)
})
export type Entity = typeof Entity.Type

export const Location = Schema.Struct({ latitude: Schema.Number, longitude: Schema.Number })

/** A shared contact card. */
export const Contact = Schema.Struct({
  phone_number: Schema.String,
  first_name: Schema.String,
  last_name: optional(Schema.String)
})
export type Contact = typeof Contact.Type

export const Venue = Schema.Struct({ location: Location, title: Schema.String, address: Schema.String })
export type Venue = typeof Venue.Type

export const Poll = Schema.Struct({ question: Schema.String, options: Schema.Array(Schema.Struct({ text: Schema.String })) })
export type Poll = typeof Poll.Type

/** The field each known origin type must carry; other origin types are accepted as they come. */
const originFields: Readonly<Record<string, string>> = {
  user: "sender_user",
  hidden_user: "sender_user_name",
  chat: "sender_chat",
  channel: "chat"
}

/** `forward_origin` (Bot API 7+): who wrote a forwarded message. */
export const MessageOrigin = Schema.Struct({
  type: Schema.String,
  sender_user: optional(User),
  sender_user_name: optional(Schema.String),
  sender_chat: optional(Chat),
  chat: optional(Chat),
  author_signature: optional(Schema.String)
}).pipe(
  Schema.filter((origin) => {
    const field = originFields[origin.type]
    return field === undefined || field in origin
      ? undefined
      : { path: [field], message: `is missing (required by forward_origin type "${origin.type}")` }
  })
)
export type MessageOrigin = typeof MessageOrigin.Type

/** A message, an edited message or a channel post: the fields normalisation reads, typed; the rest kept unknown, so a kind not captured is named. */
export const Message = Schema.Struct({
  message_id: IntegerId,
  from: optional(User),
  chat: Chat,
  date: UnixSeconds,
  edit_date: optional(UnixSeconds),
  text: optional(Schema.String),
  caption: optional(Schema.String),
  /** Sizes of one photo, smallest first. */
  photo: optional(Schema.Array(File)),
  voice: optional(File),
  audio: optional(File),
  video: optional(File),
  video_note: optional(File),
  animation: optional(File),
  document: optional(File),
  sticker: optional(File),
  /** The messages of one album share it. */
  media_group_id: optional(Schema.String),
  entities: optional(Schema.Array(Entity)),
  caption_entities: optional(Schema.Array(Entity)),
  contact: optional(Contact),
  location: optional(Location),
  venue: optional(Venue),
  poll: optional(Poll),
  forward_origin: optional(MessageOrigin),
  forward_from: optional(User),
  forward_from_chat: optional(Chat),
  forward_sender_name: optional(Schema.String),
  /** Only its id is read: the replied-to message may be of any kind (even a story). */
  reply_to_message: optional(Schema.Struct({ message_id: IntegerId }))
}, { key: Schema.String, value: Schema.Unknown }).annotations({ title: "a Telegram Message object" })
export type Message = typeof Message.Type

/** A button press on an inline keyboard. `message` is absent for inline-mode messages. */
export const CallbackQuery = Schema.Struct({
  id: Schema.String,
  from: User,
  message: optional(Schema.Struct({ message_id: IntegerId, chat: Chat })),
  inline_message_id: optional(Schema.String),
  chat_instance: Schema.String,
  data: optional(Schema.String)
}).annotations({ title: "a Telegram CallbackQuery object" })
export type CallbackQuery = typeof CallbackQuery.Type

/** One webhook body. Update kinds not named here (channel_post, my_chat_member …) are kept as unknown keys. */
export const Update = Schema.Struct(
  {
    update_id: IntegerId,
    message: optional(Message),
    edited_message: optional(Message),
    callback_query: optional(CallbackQuery)
  },
  { key: Schema.String, value: Schema.Unknown }
).annotations({ title: "a Telegram Update object" })
export type Update = typeof Update.Type

const fullName = (first: string, last: string | undefined): string => (last === undefined ? first : `${first} ${last}`)

/** Display name of a user: first and last name as Telegram shows them. */
export const userName = (user: User): string => fullName(user.first_name, user.last_name)

/** Display name of a chat: its title, else the private chat's names, else its username or id. */
export const chatName = (chat: Chat): string => {
  if (chat.title !== undefined) return chat.title
  if (chat.first_name !== undefined) return fullName(chat.first_name, chat.last_name)
  return chat.username ?? String(chat.id)
}

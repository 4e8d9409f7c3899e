/**
 * Telegram Desktop's "Export chat history" in JSON (`result.json`): the chat's messages as
 * exported messages. Service entries (joins, pins, calls) are skipped; media keep their caption
 * or, without one, become media-without-text with empty text. Polls, shared contacts and
 * locations carry no text in the export: they are captured as a line of text that renders them
 * (`Poll: question — A / B`, `Contact: Ana Souza, +351 …`, `Location: 38.7223, -9.1393`).
 */
import { DateTime, Either, ParseResult, Schema } from "effect"
import type { Link } from "../Attachment.js"
import type { MessageKind } from "../Message.js"
import { UnixSecondsFromString, utcOf } from "../UnixSeconds.js"
import { type ExportedMessage, ExportError } from "./ChatExport.js"
import { IntegerId } from "./IntegerId.js"
import { contactText, fullName, locationText, pollText } from "./Rendered.js"

/** Absent or present: JSON has no undefined, so errors name only the type that was expected. */
const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

const TextPart = Schema.Union(
  Schema.String,
  Schema.Struct({ type: Schema.String, text: Schema.String, href: optional(Schema.String) })
)

const Poll = Schema.Struct({ question: Schema.String, answers: Schema.Array(Schema.Struct({ text: Schema.String })) })
const Contact = Schema.Struct({
  first_name: optional(Schema.String),
  last_name: optional(Schema.String),
  phone_number: optional(Schema.String)
})
const Place = Schema.Struct({ latitude: Schema.Number, longitude: Schema.Number })

/** The fields of one exported entry that matter here; Telegram adds many more. Ids become keys. */
const Entry = Schema.Struct({
  id: IntegerId,
  type: Schema.String,
  date: Schema.String,
  date_unixtime: optional(UnixSecondsFromString),
  from: optional(Schema.NullOr(Schema.String)),
  from_id: optional(Schema.String),
  forwarded_from: optional(Schema.NullOr(Schema.String)),
  reply_to_message_id: optional(IntegerId),
  text: optional(Schema.Union(Schema.String, Schema.Array(TextPart))),
  photo: optional(Schema.String),
  file: optional(Schema.String),
  media_type: optional(Schema.String),
  sticker_emoji: optional(Schema.String),
  poll: optional(Poll),
  contact_information: optional(Contact),
  location_information: optional(Place),
  place_name: optional(Schema.String),
  address: optional(Schema.String)
})
type Entry = typeof Entry.Type

const Export = Schema.Struct({
  name: optional(Schema.NullOr(Schema.String)),
  type: optional(Schema.String),
  id: IntegerId,
  messages: Schema.Array(Schema.Unknown)
})

const fail = (message: string) => Either.left(new ExportError({ format: "telegram-export", message }))

const formatIssues = (error: ParseResult.ParseError): string =>
  ParseResult.ArrayFormatter.formatErrorSync(error)
    .map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.join(".")}: ${issue.message}`))
    .join("; ")

/** The text as its parts join, with the URL of each `text_link` part at its offset in it. */
const textOf = (text: Entry["text"]): { readonly text: string; readonly links: ReadonlyArray<Link> } => {
  if (text === undefined) return { text: "", links: [] }
  if (typeof text === "string") return { text, links: [] }
  let joined = ""
  const links: Array<Link> = []
  for (const part of text) {
    const piece = typeof part === "string" ? part : part.text
    if (typeof part !== "string" && part.type === "text_link" && part.href !== undefined && piece.length > 0) {
      links.push({ offset: joined.length, length: piece.length, url: part.href })
    }
    joined += piece
  }
  return { text: joined, links }
}

/** A poll, contact or location as the text a reader of the chat saw, with its kind; null for any other entry. */
const rendered = (entry: Entry): { readonly kind: MessageKind; readonly text: string } | null => {
  if (entry.poll !== undefined) return { kind: "poll", text: pollText(entry.poll.question, entry.poll.answers.map((a) => a.text)) }
  if (entry.contact_information !== undefined) {
    const c = entry.contact_information
    return { kind: "contact", text: contactText(fullName([c.first_name, c.last_name]), c.phone_number === undefined ? [] : [c.phone_number]) }
  }
  if (entry.location_information !== undefined) {
    const { latitude, longitude } = entry.location_information
    return { kind: "location", text: locationText(latitude, longitude, [entry.place_name, entry.address]) }
  }
  return null
}

const sentAt = (entry: Entry): DateTime.Utc | undefined => {
  if (entry.date_unixtime !== undefined) return utcOf(entry.date_unixtime)
  // Older exports only have local time without a zone; it is read as UTC.
  return DateTime.make(/[zZ]|[+-]\d\d:\d\d$/.test(entry.date) ? entry.date : `${entry.date}Z`).pipe((o) =>
    o._tag === "Some" ? o.value : undefined
  )
}

const hasMedia = (entry: Entry): boolean =>
  entry.photo !== undefined || entry.file !== undefined || entry.media_type !== undefined || entry.sticker_emoji !== undefined

const decodeExport = Schema.decodeUnknownEither(Export, { errors: "all" })
const decodeEntry = Schema.decodeUnknownEither(Entry, { errors: "all" })

/** The exported chat: the other side's id (a bot's user id in a chat with a bot) and Telegram's type for it. */
export interface TelegramChat {
  readonly id: string
  /** `personal_chat`, `bot_chat`, `private_group` …; null in exports that do not say. */
  readonly type: string | null
}

/** A `result.json` read whole: the chat and its messages. */
export interface TelegramExport {
  readonly chat: TelegramChat
  readonly messages: ReadonlyArray<ExportedMessage>
}

/**
 * Parse the text of a `result.json`. The error names the message index (from 1) and the field,
 * and says how to produce a readable export.
 */
export const parseTelegramExport = (text: string): Either.Either<ReadonlyArray<ExportedMessage>, ExportError> =>
  Either.map(readTelegramExport(text), (read) => read.messages)

/** `parseTelegramExport` with the chat the export is of. */
export const readTelegramExport = (text: string): Either.Either<TelegramExport, ExportError> => {
  const json = Either.try(() => JSON.parse(text) as unknown)
  if (Either.isLeft(json)) {
    return fail(`not JSON (${String(json.left)}); export the chat from Telegram Desktop with "Format: JSON"`)
  }
  const chat = decodeExport(json.right)
  if (Either.isLeft(chat)) {
    return fail(`not a single-chat export: ${formatIssues(chat.left)}; use "Export chat history" on one chat`)
  }
  const chatId = chat.right.id
  const out: Array<ExportedMessage> = []
  for (const [index, raw] of chat.right.messages.entries()) {
    const location = `message ${index + 1}`
    const entry = decodeEntry(raw)
    if (Either.isLeft(entry)) return fail(`${location}: ${formatIssues(entry.left)}; the file may be damaged, export it again`)
    const e = entry.right
    if (e.type !== "message") continue
    const time = sentAt(e)
    if (time === undefined) return fail(`${location} (id ${e.id}): unreadable date "${e.date}"; export it again`)
    const shown = rendered(e)
    const { links, text } = textOf(e.text)
    // A rendering comes first, so the links' offsets move by its length and the newline after it.
    const body = shown === null ? text : text === "" ? shown.text : `${shown.text}\n${text}`
    const shift = shown === null || text === "" ? 0 : shown.text.length + 1
    out.push({
      exportId: `${chatId}:${e.id}`,
      author: e.from ?? "Unknown",
      ...(e.from_id === undefined ? {} : { authorId: e.from_id }),
      forwardedFrom: e.forwarded_from ?? null,
      sentAt: time,
      text: body,
      kind: body === "" ? "media-without-text" : shown !== null ? shown.kind : hasMedia(e) ? "caption" : "text",
      links: links.map((link) => ({ ...link, offset: link.offset + shift })),
      replyTo: e.reply_to_message_id === undefined ? null : `${chatId}:${e.reply_to_message_id}`,
      location
    })
  }
  return Either.right({ chat: { id: String(chatId), type: chat.right.type ?? null }, messages: out })
}

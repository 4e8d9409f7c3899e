/**
 * Telegram Desktop's "Export chat history" in JSON (`result.json`): the chat's messages as
 * exported messages. Service entries (joins, pins, calls) are skipped; media keep their caption
 * or, without one, become media-without-text with empty text. Polls, shared contacts and
 * locations carry no text in the export: they are captured as a line of text that renders them
 * (`Poll: question — A / B`, `Contact: Ana Souza, +351 …`, `Location: 38.7223, -9.1393`).
 */
import { DateTime, Either, ParseResult, Schema } from "effect"
import { UnixSecondsFromString, utcOf } from "../UnixSeconds.js"
import { type ExportedMessage, ExportError } from "./ChatExport.js"
import { IntegerId } from "./IntegerId.js"

/** Absent or present: JSON has no undefined, so errors name only the type that was expected. */
const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

const TextPart = Schema.Union(Schema.String, Schema.Struct({ type: Schema.String, text: Schema.String }))

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
  id: IntegerId,
  messages: Schema.Array(Schema.Unknown)
})

const fail = (message: string) => Either.left(new ExportError({ format: "telegram-export", message }))

const formatIssues = (error: ParseResult.ParseError): string =>
  ParseResult.ArrayFormatter.formatErrorSync(error)
    .map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.join(".")}: ${issue.message}`))
    .join("; ")

const plainText = (text: Entry["text"]): string =>
  text === undefined ? "" : typeof text === "string" ? text : text.map((part) => (typeof part === "string" ? part : part.text)).join("")

const joined = (parts: ReadonlyArray<string | undefined>, separator: string) =>
  parts.map((part) => part?.trim() ?? "").filter((part) => part !== "").join(separator)

/** A poll, contact or location as the text a reader of the chat saw, or "" for any other entry. */
const rendered = (entry: Entry): string => {
  if (entry.poll !== undefined) {
    return `Poll: ${entry.poll.question} — ${entry.poll.answers.map((a) => a.text).join(" / ")}`
  }
  if (entry.contact_information !== undefined) {
    const c = entry.contact_information
    return `Contact: ${joined([joined([c.first_name, c.last_name], " "), c.phone_number], ", ")}`
  }
  if (entry.location_information !== undefined) {
    const { latitude, longitude } = entry.location_information
    const place = joined([entry.place_name, entry.address], ", ")
    return `Location: ${place === "" ? "" : `${place} `}${place === "" ? `${latitude}, ${longitude}` : `(${latitude}, ${longitude})`}`
  }
  return ""
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

/**
 * Parse the text of a `result.json`. The error names the message index (from 1) and the field,
 * and says how to produce a readable export.
 */
export const parseTelegramExport = (text: string): Either.Either<ReadonlyArray<ExportedMessage>, ExportError> => {
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
    const text = plainText(e.text)
    const body = shown === "" ? text : text === "" ? shown : `${shown}\n${text}`
    out.push({
      exportId: `${chatId}:${e.id}`,
      author: e.from ?? "Unknown",
      forwardedFrom: e.forwarded_from ?? null,
      sentAt: time,
      text: body,
      kind: body === "" ? "media-without-text" : hasMedia(e) ? "caption" : "text",
      replyTo: e.reply_to_message_id === undefined ? null : `${chatId}:${e.reply_to_message_id}`,
      location
    })
  }
  return Either.right(out)
}

/**
 * WhatsApp's "Export chat" text (Android `12/31/23, 9:15 PM - Name: text` and iOS
 * `[31/12/2023, 21:15:42] Name: text`) as exported messages. A line that does not start with a
 * date continues the message before it; lines without `Name:` are WhatsApp's own notices and are
 * skipped; media placeholders become media-without-text with empty text.
 */
import { DateTime, Either } from "effect"
import { type ExportedMessage, ExportError } from "./ChatExport.js"

/** Day before month (most locales) or month before day (US); times are read as UTC. */
export type DateOrder = "dmy" | "mdy"

export interface WhatsAppExportOptions {
  /** Unset: guessed from the dates (a first field over 12 means dmy); dmy when nothing tells. */
  readonly dateOrder?: DateOrder | undefined
}

const space = "[\\s\\u202f\\u00a0]"
const stamp = `(\\d{1,2})[/.-](\\d{1,2})[/.-](\\d{2,4}),?${space}(\\d{1,2})[:.](\\d{2})(?:[:.](\\d{2}))?(?:${space}?([AaPp])\\.?${space}?[Mm]\\.?)?`
const android = new RegExp(`^${stamp}${space}-${space}(.*)$`)
const ios = new RegExp(`^\\[${stamp}\\]${space}(.*)$`)
const authored = /^([^:]+?): ([\s\S]*)$/
const invisible = /[\u200e\u200f\u202a-\u202e]/g
const placeholder =
  /^(<Media omitted>|(image|video|audio|sticker|GIF|document|Contact card) omitted|<attached: [^>]*>)$/i

interface Header {
  readonly line: number
  readonly fields: ReadonlyArray<string | undefined>
  readonly rest: string
}

const fnv1a = (text: string): string => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(16).padStart(8, "0")
}

const guessOrder = (headers: ReadonlyArray<Header>): DateOrder => {
  if (headers.some((h) => Number(h.fields[0]) > 12)) return "dmy"
  if (headers.some((h) => Number(h.fields[1]) > 12)) return "mdy"
  return "dmy"
}

const timeOf = (fields: ReadonlyArray<string | undefined>, order: DateOrder): DateTime.Utc | undefined => {
  const [a, b, y, h, min, sec, ampm] = fields
  const day = Number(order === "dmy" ? a : b)
  const month = Number(order === "dmy" ? b : a)
  const year = Number(y!.length === 2 ? `20${y}` : y)
  let hours = Number(h)
  if (ampm !== undefined) hours = (hours % 12) + (ampm.toLowerCase() === "p" ? 12 : 0)
  const millis = Date.UTC(year, month - 1, day, hours, Number(min), Number(sec ?? 0))
  const check = new Date(millis)
  return check.getUTCDate() === day && check.getUTCMonth() === month - 1 && hours < 24
    ? DateTime.unsafeMake(millis)
    : undefined
}

const bodyOf = (text: string): { readonly text: string; readonly kind: ExportedMessage["kind"] } => {
  const [first = "", ...more] = text.split("\n")
  if (!placeholder.test(first.trim())) return { text, kind: "text" }
  const caption = more.join("\n").trim()
  return caption === "" ? { text: "", kind: "media-without-text" } : { text: caption, kind: "caption" }
}

const fail = (message: string) => Either.left(new ExportError({ format: "whatsapp-export", message }))

/**
 * Parse an exported chat. Ids are stable across re-exports: the time, a hash of author and text,
 * and which repetition of that triple it is. An error names the line and what to do.
 */
export const parseWhatsAppExport = (
  text: string,
  options: WhatsAppExportOptions = {}
): Either.Either<ReadonlyArray<ExportedMessage>, ExportError> => {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/)
  const headers: Array<Header & { body: Array<string> }> = []
  for (const [index, raw] of lines.entries()) {
    const line = raw.replace(invisible, "")
    const match = android.exec(line) ?? ios.exec(line)
    if (match !== null) {
      headers.push({ line: index + 1, fields: match.slice(1, 8), rest: match[8]!, body: [] })
    } else if (headers.length > 0) {
      headers[headers.length - 1]!.body.push(line)
    } else if (line.trim() !== "") {
      return fail(`line ${index + 1}: expected a line starting with a date like "31/12/2023, 21:15 - Name: text"; ` +
        `use the .txt file WhatsApp's "Export chat" writes (without media, or unzip it first)`)
    }
  }
  if (headers.length === 0) return fail(`no messages found; use the .txt file WhatsApp's "Export chat" writes`)
  const order = options.dateOrder ?? guessOrder(headers)
  const seen = new Map<string, number>()
  const out: Array<ExportedMessage> = []
  for (const header of headers) {
    const sentAt = timeOf(header.fields, order)
    if (sentAt === undefined) {
      return fail(`line ${header.line}: "${header.fields.slice(0, 3).join("/")}" is not a date in ${order} order; ` +
        `pass the other date order`)
    }
    const message = authored.exec([header.rest, ...header.body].join("\n").replace(/\n+$/, ""))
    if (message === null) continue
    const author = message[1]!.trim()
    const body = bodyOf(message[2]!)
    const key = `${DateTime.formatIso(sentAt)}/${fnv1a(`${author}\n${message[2]}`)}`
    const repeat = (seen.get(key) ?? 0) + 1
    seen.set(key, repeat)
    out.push({
      exportId: `${key}/${repeat}`,
      author,
      forwardedFrom: null,
      sentAt,
      text: body.text,
      kind: body.kind,
      replyTo: null,
      location: `line ${header.line}`
    })
  }
  return Either.right(out)
}

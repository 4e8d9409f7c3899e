/**
 * WhatsApp's "Export chat" text (Android `31/12/2023, 21:15 - Name: text`, iOS
 * `[31/12/2023, 21:15:42] Name: text`, and the other frames and locales `WhatsAppStamp.ts` reads)
 * as exported messages. The first line's frame is the file's: a later line that starts with a
 * stamp in another frame is text of the message before it, as is any line that does not start
 * with a date. WhatsApp's own notices are skipped: lines without `Name: `, and those whose `: ` is
 * inside the notice (a group named "Trip: Lisbon", iOS notices written as the chat's name and a
 * mark). Media placeholders become media-without-text with empty text; every other character of
 * a message's text is kept, U+200E/U+200F included.
 */
import { DateTime, Either } from "effect"
import { type ExportedMessage, ExportError } from "./ChatExport.js"
import { clockOf, type DateOrder, guessOrder, guessYearFirstOrder, instantOf, readStamp, type Stamp } from "./WhatsAppStamp.js"

export type { DateOrder } from "./WhatsAppStamp.js"

export interface WhatsAppExportOptions {
  /**
   * Unset: read from the whole file's dates (a first field over 12 means dmy, a second one mdy);
   * dmy when nothing tells. Year-first dates are ymd unless a second field over 12 says ydm.
   */
  readonly dateOrder?: DateOrder | undefined
  /** The zone the phone wrote the times in; unset, UTC. */
  readonly timeZone?: DateTime.TimeZone | undefined
  /**
   * Names the chat in every message id, so the same line in two chats is two messages. Unset,
   * the export's first line names it: a re-export of the chat starts with the same line.
   */
  readonly chat?: string | undefined
}

/** Marks WhatsApp writes around a line, a phone-number author, or a placeholder; never part of what was said. */
const marks = /[\u200e\u200f\u202a-\u202e]/g
export const leadingMarks = /^[\u200e\u200f]+/
const authored = /^([^:]+?): ([\s\S]*)$/

/** A message line's author (marks taken out) and the text after its `Name: `, or null when it names none. */
export const authorOf = (rest: string): { readonly author: string; readonly text: string } | null => {
  const message = authored.exec(rest)
  return message === null ? null : { author: message[1]!.replace(marks, "").trim(), text: message[2]! }
}
const placeholder = new RegExp(
  "^(<Media omitted>|(image|video|audio|sticker|GIF|document|Contact card) omitted|< ?attached: [^>]*>|[^\\n]* document omitted" +
    // A file's name and a note that it was attached (English, German; `<attached>` on old iOS).
    "|[\\w.-]+\\.\\w+ (\\(file attached\\)|\\(Datei angehängt\\)|<\\u200e?attached>))$",
  "i"
)
/** Notices with a `: ` in them (a quoted group name, subject or description), so not `Name: text`. */
const notices = [
  /^Messages and calls are end-to-end encrypted\./,
  /^[^:]+ created (the )?group ["\u201c]/,
  /^[^:]+ changed (the subject|the group name|this group's description|the group description)( from ["\u201c][\s\S]*)? to ["\u201c]/
]

interface Header {
  readonly line: number
  readonly stamp: Stamp
  readonly body: Array<string>
}

const fnv1a = (text: string): string => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(16).padStart(8, "0")
}

/** An iOS notice is written as the chat's name, `: ` and a mark before the notice itself. */
const isNotice = (rest: string): boolean => {
  if (notices.some((notice) => notice.test(rest))) return true
  const marked = /^[^\n]*?: \u200e([\s\S]*)$/.exec(rest)
  return marked !== null && !placeholder.test(marked[1]!.split("\n")[0]!.trim())
}

const bodyOf = (text: string): { readonly text: string; readonly kind: ExportedMessage["kind"] } => {
  const [first = "", ...more] = text.split("\n")
  if (!placeholder.test(first.replace(leadingMarks, "").trim())) return { text, kind: "text" }
  const caption = more.join("\n").trim()
  return caption === "" ? { text: "", kind: "media-without-text" } : { text: caption, kind: "caption" }
}

const fail = (message: string) => Either.left(new ExportError({ format: "whatsapp-export", message }))

/**
 * Parse an exported chat. Ids are stable across re-exports: the chat, the time, a hash of
 * author and text, and which repetition of those it is. An error names the line and what to do.
 */
export const parseWhatsAppExport = (
  text: string,
  options: WhatsAppExportOptions = {}
): Either.Either<ReadonlyArray<ExportedMessage>, ExportError> => {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/)
  const headers: Array<Header> = []
  for (const [index, raw] of lines.entries()) {
    const stamp = readStamp(raw.replace(leadingMarks, ""))
    if (stamp !== null && (headers.length === 0 || stamp.frame === headers[0]!.stamp.frame)) {
      headers.push({ line: index + 1, stamp, body: [] })
    } else if (headers.length > 0) {
      headers[headers.length - 1]!.body.push(raw)
    } else if (raw.trim() !== "") {
      return fail(`line ${index + 1}: expected a line starting with a date like "31/12/2023, 21:15 - Name: text"; ` +
        `use the .txt file WhatsApp's "Export chat" writes (without media, or unzip it first)`)
    }
  }
  if (headers.length === 0) return fail(`no messages found; use the .txt file WhatsApp's "Export chat" writes`)
  const stamps = headers.map((h) => h.stamp)
  const order = options.dateOrder ?? guessOrder(stamps)
  const yearFirst = guessYearFirstOrder(stamps)
  const first = headers[0]!.stamp
  const chat = fnv1a(options.chat ?? `${first.written}${first.rest}`)
  const seen = new Map<string, number>()
  const seenFormer = new Map<string, number>()
  const out: Array<ExportedMessage> = []
  for (const header of headers) {
    const sentAt = instantOf(header.stamp, order, options.timeZone, yearFirst)
    if (sentAt === undefined) {
      const { dateText, yearFirst: first } = header.stamp
      if (clockOf(header.stamp) === undefined) {
        return fail(`line ${header.line}: "${header.stamp.written.trim()}" has no such time of day; the file may be damaged`)
      }
      return fail(`line ${header.line}: "${dateText}" is not a date in ${first ? yearFirst : order} order; ` +
        (first ? "the file may be damaged" : "pass the other date order"))
    }
    const whole = [header.stamp.rest, ...header.body].join("\n").replace(/\n+$/, "")
    const message = isNotice(whole) ? null : authored.exec(whole)
    if (message === null) continue
    const author = message[1]!.replace(marks, "").trim()
    const body = bodyOf(message[2]!)
    const key = `${chat}/${DateTime.formatIso(sentAt)}/${fnv1a(`${author}\n${message[2]}`)}`
    const repeat = (seen.get(key) ?? 0) + 1
    seen.set(key, repeat)
    // Before the chat was part of the id (and marks were taken out of the author), it read so.
    const former = `${DateTime.formatIso(sentAt)}/${fnv1a(`${message[1]!.trim()}\n${message[2]}`)}`
    const formerRepeat = (seenFormer.get(former) ?? 0) + 1
    seenFormer.set(former, formerRepeat)
    out.push({
      exportId: `${key}/${repeat}`,
      formerExportIds: [`${former}/${formerRepeat}`],
      author,
      forwardedFrom: null,
      sentAt,
      text: body.text,
      kind: body.kind,
      links: [],
      replyTo: null,
      location: `line ${header.line}`
    })
  }
  return Either.right(out)
}

/**
 * A pasted excerpt of a chat split into its messages: WhatsApp's copied lines (`[12:01, 05/12/2026]
 * Ana: text`, time first, as the app copies selected messages), its exported lines (`31/12/2023,
 * 21:15 - Ana: text`, the frames `WhatsAppStamp.ts` reads), or plain `Name: text` lines. The first
 * WhatsApp line decides the paste's format: then only lines in that same format start a message,
 * and a `Name: text` line inside a message is part of its text. A line that starts no message
 * belongs to the one before it, as WhatsApp copies a message of several lines. Nothing is lost:
 * every message's prefix, text and gap, put back together in order, are the paste.
 */
import { authorOf, leadingMarks } from "./WhatsAppExport.js"
import { type Frame, readCopiedStamp, readStamp } from "./WhatsAppStamp.js"

/** One message of a paste. */
export interface PastedMessage {
  /** Who wrote it, as the line names them (WhatsApp's marks taken out); null for lines before any name. */
  readonly author: string | null
  /** The paste's characters before the text: blank lines before the first message, the stamp, the name and `: `. */
  readonly prefix: string
  /** What was said, exactly: its lines as pasted, without the blank lines around it. */
  readonly text: string
  /** The paste's characters after the text, up to the next message's prefix: line breaks and blank lines. */
  readonly gap: string
}

/** How a paste's message lines are written. */
export type PasteFormat = "whatsapp-copied" | `whatsapp-${Frame}` | "named"

interface Header {
  readonly format: PasteFormat
  readonly author: string
  /** Where the text starts in the line. */
  readonly at: number
}

/** A name before `: `: up to 40 characters, no colon, not starting or ending with a space. */
const named = /^([^:\s](?:[^:]{0,38}[^:\s])?): /

const isBlank = (line: string): boolean => line.trim() === ""

/** The message a line starts, in whichever format it is written; null for a line that starts none. */
const headerOf = (line: string): Header | null => {
  const bare = line.replace(leadingMarks, "")
  const copied = readCopiedStamp(bare)
  const exported = copied === null ? readStamp(bare) : null
  const stamped = copied ?? exported
  if (stamped !== null) {
    const message = authorOf(stamped.rest)
    if (message === null || message.author === "" || isBlank(message.text)) return null
    const format: PasteFormat = exported === null ? "whatsapp-copied" : `whatsapp-${exported.frame}`
    return { format, author: message.author, at: line.length - message.text.length }
  }
  const name = named.exec(line)
  if (name === null || isBlank(line.slice(name[0].length))) return null
  return { format: "named", author: name[1]!, at: name[0].length }
}

/** The format of the paste's first WhatsApp line, else `named` when some line names its writer; null when none does. */
export const formatOf = (lines: ReadonlyArray<string>): PasteFormat | null => {
  let format: PasteFormat | null = null
  for (const line of lines) {
    const header = headerOf(line)
    if (header !== null && header.format !== "named") return header.format
    if (header !== null) format = "named"
  }
  return format
}

interface Group {
  readonly author: string | null
  readonly head: string
  readonly lines: Array<string>
}

/**
 * The messages of a paste, in order. Line breaks are `\n` (a `\r` is kept as a character of the
 * text). A paste with no line that names a writer is one message with no author; a paste of
 * nothing but blank lines is none.
 */
export const parsePastedChat = (paste: string): ReadonlyArray<PastedMessage> => {
  const lines = paste.split("\n")
  const format = formatOf(lines)
  const groups: Array<Group> = []
  for (const line of lines) {
    const header = format === null ? null : headerOf(line)
    if (header !== null && header.format === format) {
      groups.push({ author: header.author, head: line.slice(0, header.at), lines: [line.slice(header.at)] })
    } else if (groups.length === 0) {
      groups.push({ author: null, head: "", lines: [line] })
    } else {
      groups[groups.length - 1]!.lines.push(line)
    }
  }
  const out: Array<PastedMessage> = []
  // Blank lines before the first message: part of its prefix.
  let pending = ""
  for (const [index, group] of groups.entries()) {
    const last = index === groups.length - 1
    const first = group.lines.findIndex((line) => !isBlank(line))
    if (first === -1) {
      pending += group.lines.join("\n") + (last ? "" : "\n")
      continue
    }
    let end = group.lines.length
    while (isBlank(group.lines[end - 1]!)) end--
    out.push({
      author: group.author,
      prefix: pending + group.head + group.lines.slice(0, first).map((line) => `${line}\n`).join(""),
      text: group.lines.slice(first, end).join("\n"),
      gap: group.lines.slice(end).map((line) => `\n${line}`).join("") + (last ? "" : "\n")
    })
    pending = ""
  }
  return out
}

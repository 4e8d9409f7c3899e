/**
 * What the log already has of an export, before anything is recorded: each exported message is
 * there under its export id (an earlier import of it), or as a live message of the importing
 * user with the same minute and text (`ImportMatch.ts`), or missing. A command the user typed in
 * their chat with the bot was never content and is left out, and so is a line with the text of a
 * reply the bot sent to that chat in the same minute (the bot's own words, in an export that
 * names authors only by display name); a message a store cannot keep exactly is refused by name. `verbatim import` records the missing ones, `--dry-run` and
 * `verbatim reconcile` print this survey.
 */
import { type ExportedMessage, exportedMessageId, type ExportFormat, isExported } from "@verbatim/domain/Inbound/ChatExport"
import { botCommand } from "@verbatim/domain/Inbound/Commands"
import { type Captured, matchByContent, minuteOf } from "@verbatim/domain/Inbound/ImportMatch"
import { NewMessage, unstorable } from "@verbatim/domain/Inbound/Inbound"
import { type Provider, userIdOf } from "@verbatim/domain/Ids"
import { EventStore } from "@verbatim/projections/EventStore"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import { DateTime, Effect } from "effect"
import { botUsername } from "./Inbox/Ingest.js"

/** Whose log the export is compared with, and the format its ids are recorded under. */
export interface SurveyOptions {
  readonly provider: Provider
  readonly senderId: string
  readonly format: ExportFormat
}

/** Where an exported message stands. */
export type Standing =
  | { readonly _tag: "ById" }
  | { readonly _tag: "ByContent"; readonly providerMessageId: string }
  | { readonly _tag: "Command" }
  /** The text of a reply the bot sent to this chat in that minute: the bot's line in an export of the chat with it. */
  | { readonly _tag: "BotReply"; readonly replyId: string }
  | { readonly _tag: "Refused"; readonly why: string }
  | { readonly _tag: "Missing" }

export interface Surveyed {
  readonly message: ExportedMessage
  /** The message as it would be captured. */
  readonly item: NewMessage
  readonly standing: Standing
}

/**
 * The message as the importing user's capture: the exported chat's author becomes who it was
 * forwarded from, except in the user's own chat with the bot, where their words are their own.
 */
export const toNewMessage = (message: ExportedMessage, options: SurveyOptions): NewMessage =>
  NewMessage.make({
    provider: options.provider,
    providerMessageId: exportedMessageId(options.format, message.exportId),
    senderId: options.senderId,
    chatId: options.senderId,
    senderName: null,
    text: message.text,
    kind: message.kind,
    forwardedFrom: message.byImporter === true ? message.forwardedFrom : message.forwardedFrom ?? message.author,
    replyTo: message.replyTo === null ? null : exportedMessageId(options.format, message.replyTo),
    attachments: [],
    links: message.links,
    mediaGroup: null,
    sentAt: message.sentAt
  })

/** Whether the message was imported before, under its id or one an earlier version of the parser gave it. */
const recordedById = (message: ExportedMessage, item: NewMessage, options: SurveyOptions) =>
  Effect.flatMap(EventStore, (store) =>
    Effect.reduce([item.providerMessageId, ...(message.formerExportIds ?? []).map((id) => exportedMessageId(options.format, id))], false, (found, id) =>
      found ? Effect.succeed(true) : store.isRecorded({ provider: options.provider, providerMessageId: id })))

/** Why an exported message cannot be stored exactly, naming it by where the export has it, or null. */
const refusal = (message: ExportedMessage, item: NewMessage): string | null => {
  const problem = unstorable(item)
  return problem === null ? null : `${message.location} (${message.author}, ${DateTime.formatIso(message.sentAt)}): ${problem}`
}

/** Live messages of the user sent in the minute of each message with its text, each asked for once. */
const liveCandidates = (messages: ReadonlyArray<ExportedMessage>, options: SurveyOptions) =>
  Effect.gen(function*() {
    const read = yield* SessionLookups
    const user = userIdOf(options.provider, options.senderId)
    const asked = new Set<string>()
    const live = new Map<string, Captured>()
    for (const message of messages) {
      const [from, to] = minuteOf(message.sentAt)
      const key = `${DateTime.toEpochMillis(from)}\u0000${message.text}`
      if (asked.has(key)) continue
      asked.add(key)
      for (const row of yield* read.sentMessages({ user, from, to, text: message.text })) {
        // Only live messages: an import of another export is found by its own ids, never by its words.
        if (!isExported(row.providerMessageId)) live.set(row.providerMessageId, row)
      }
    }
    return [...live.values()]
  })

/** The replies the bot sent to the user's chat over the export's span (a minute either side). */
const botLines = (messages: ReadonlyArray<ExportedMessage>, options: SurveyOptions) =>
  Effect.gen(function*() {
    if (messages.length === 0) return []
    const times = messages.map((m) => DateTime.toEpochMillis(m.sentAt))
    const read = yield* SessionLookups
    return yield* read.sentReplies({
      provider: options.provider,
      chat: options.senderId,
      from: minuteOf(DateTime.unsafeMake(Math.min(...times)))[0],
      to: minuteOf(DateTime.unsafeMake(Math.max(...times)))[1]
    })
  })

/** Where each message of the export stands, in time order. */
export const survey = Effect.fn("Import.survey")(function*(messages: ReadonlyArray<ExportedMessage>, options: SurveyOptions) {
  const bot = yield* botUsername
  const ordered = [...messages].sort((a, b) => DateTime.toEpochMillis(a.sentAt) - DateTime.toEpochMillis(b.sentAt))
  const out: Array<{ message: ExportedMessage; item: NewMessage; standing: Standing }> = []
  const unknown: Array<number> = []
  for (const message of ordered) {
    const item = toNewMessage(message, options)
    const problem = refusal(message, item)
    const standing: Standing | null = (yield* recordedById(message, item, options))
      ? { _tag: "ById" }
      : message.byImporter === true && botCommand(item, bot) !== null
      ? { _tag: "Command" }
      : problem !== null
      ? { _tag: "Refused", why: problem }
      : null
    if (standing === null) unknown.push(out.length)
    out.push({ message, item, standing: standing ?? { _tag: "Missing" } })
  }
  const candidates = unknown.map((i) => out[i]!.message)
  const matches = matchByContent(candidates, yield* liveCandidates(candidates, options))
  // What the log has not got in the user's words may be the bot's own reply (an export names the bot only by its display name).
  const others = unknown.filter((_, k) => matches[k] === null && out[unknown[k]!]!.message.byImporter !== true)
  const replies = matchByContent(others.map((i) => out[i]!.message), yield* botLines(others.map((i) => out[i]!.message), options))
  unknown.forEach((i, k) => {
    const live = matches[k]
    if (live !== null && live !== undefined) out[i] = { ...out[i]!, standing: { _tag: "ByContent", providerMessageId: live.providerMessageId } }
  })
  others.forEach((i, k) => {
    const reply = replies[k]
    if (reply !== null && reply !== undefined) out[i] = { ...out[i]!, standing: { _tag: "BotReply", replyId: reply.providerMessageId } }
  })
  return out as ReadonlyArray<Surveyed>
})

/** How many messages stand each way. */
export const tally = (surveyed: ReadonlyArray<Surveyed>): Record<Standing["_tag"], number> => {
  const counts = { ById: 0, ByContent: 0, Command: 0, BotReply: 0, Refused: 0, Missing: 0 }
  for (const s of surveyed) counts[s.standing._tag] += 1
  return counts
}

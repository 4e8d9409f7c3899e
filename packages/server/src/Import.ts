/**
 * Importing a chat export: each exported message is captured as if its sender had forwarded it
 * to the bot, into the importing user's sessions. A gap longer than the idle time starts a new
 * session, and every session the import fills is closed with reason `import`, so the plan job
 * picks it up. The clock is set to each message's own time, so receipt and close times are the
 * chat's, not the import's. Provider message ids come from the export's stable ids: importing
 * the same export again records nothing. The sessions are planned without a reply each; the import
 * queues one reply for all of them (unless `quiet`). A message a store cannot keep exactly is
 * refused by name and the rest still imports, as a webhook refuses such an item alone.
 */
import { type ExportedMessage, exportedMessageId, type ExportFormat } from "@verbatim/domain/Inbound/ChatExport"
import { type Provider, ReplyId, type SessionId, userIdOf } from "@verbatim/domain/Ids"
import { NewMessage, unstorable } from "@verbatim/domain/Inbound/Inbound"
import { importSummary } from "@verbatim/domain/ReplyText"
import { EventStore } from "@verbatim/projections/EventStore"
import { ReadModel } from "@verbatim/projections/ReadModel"
import { Clock, DateTime, Duration, Effect, Option } from "effect"
import { capture, type CaptureNeeds, closeSession } from "./Inbox/Ingest.js"
import * as Replies from "./Replies.js"
import type { Progress } from "./Progress.js"

/** Whose sessions receive the import, and what splits it into sessions. */
export interface ImportOptions {
  readonly provider: Provider
  readonly senderId: string
  /** The export format, part of every provider message id so two formats never collide. */
  readonly format: ExportFormat
  readonly idle: Duration.Duration
  /** No summary reply to the user. */
  readonly quiet?: boolean
  readonly progress?: Progress
}

/** What an import did. */
export interface ImportSummary {
  readonly messages: number
  readonly recorded: number
  readonly alreadyRecorded: number
  /** Sessions that received messages, in order. */
  readonly sessions: ReadonlyArray<SessionId>
  /** Messages a store cannot keep exactly, each named with why; nothing of them was recorded. */
  readonly refused: ReadonlyArray<string>
  /** Whether the one summary reply was queued. */
  readonly replied: boolean
}

/**
 * A clock stopped at one instant: what `capture` and `closeSession` read as "now". It still
 * sleeps in real time (a retried conflict waits), so only the time it tells is the chat's.
 */
const clockAt = (millis: number): Clock.Clock => {
  const clock = Clock.make()
  return {
    ...clock,
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    sleep: (duration) => clock.sleep(duration),
    unsafeCurrentTimeMillis: () => millis,
    currentTimeMillis: Effect.succeed(millis),
    unsafeCurrentTimeNanos: () => BigInt(millis) * 1_000_000n,
    currentTimeNanos: Effect.succeed(BigInt(millis) * 1_000_000n)
  }
}

const toNewMessage = (message: ExportedMessage, options: ImportOptions): NewMessage =>
  NewMessage.make({
    provider: options.provider,
    providerMessageId: exportedMessageId(options.format, message.exportId),
    senderId: options.senderId,
    chatId: options.senderId,
    senderName: null,
    text: message.text,
    kind: message.kind,
    forwardedFrom: message.forwardedFrom ?? message.author,
    replyTo: message.replyTo === null ? null : exportedMessageId(options.format, message.replyTo),
    attachments: [],
    links: message.links,
    mediaGroup: null,
    sentAt: message.sentAt
  })

/** Whether the message was imported under an id an earlier version of the parser gave it. */
const importedBefore = (message: ExportedMessage, options: ImportOptions) =>
  Effect.flatMap(EventStore, (store) =>
    Effect.reduce(message.formerExportIds ?? [], false, (found, id) =>
      found ? Effect.succeed(true) : store.isRecorded({ provider: options.provider, providerMessageId: exportedMessageId(options.format, id) })))

/** Close a session the import filled; a running server's scheduler may have closed it first (its messages are old). */
const closeImported = (sessionId: SessionId) => closeSession(sessionId, "import")

/** Why an exported message cannot be stored exactly, naming it by where the export has it, or null. */
const refusal = (message: ExportedMessage, item: NewMessage): string | null => {
  const problem = unstorable(item)
  return problem === null ? null : `${message.location} (${message.author}, ${DateTime.formatIso(message.sentAt)}): ${problem}`
}

/**
 * The import's one reply, in the user's chat, under an id its first session names (a new
 * session of this import): queued at most once however often the import is retried.
 */
const queueSummary = (options: ImportOptions, recorded: number, sessions: ReadonlyArray<SessionId>, refused: number) =>
  Effect.gen(function*() {
    const replyId = ReplyId.make(`reply_import_${sessions[0]}`)
    return yield* Replies.queue({
      replyId,
      user: userIdOf(options.provider, options.senderId),
      provider: options.provider,
      chat: options.senderId,
      text: importSummary({ recorded, sessions: sessions.length, refused }),
      buttons: [],
      questionId: null
    })
  })

/** Capture exported messages in time order; an open session of the user's is closed first. */
export const importMessages = Effect.fn("Import.importMessages")(function*(
  messages: ReadonlyArray<ExportedMessage>,
  options: ImportOptions
) {
  const user = userIdOf(options.provider, options.senderId)
  const open = yield* Effect.flatMap(ReadModel, (read) => read.conversationSessions({ user, provider: options.provider, chat: options.senderId }))
  if (Option.isSome(open.open)) yield* closeImported(open.open.value)
  const ordered = [...messages].sort((a, b) => DateTime.toEpochMillis(a.sentAt) - DateTime.toEpochMillis(b.sentAt))
  const idleMillis = Duration.toMillis(options.idle)
  const sessions: Array<SessionId> = []
  let current: { readonly sessionId: SessionId; readonly lastAt: number } | null = null
  let recorded = 0
  const refused: Array<string> = []
  const close = (at: number) =>
    current === null ? Effect.void : Effect.asVoid(Effect.withClock(closeImported(current.sessionId), clockAt(at)))
  for (const message of ordered) {
    const at = DateTime.toEpochMillis(message.sentAt)
    if (current !== null && at - current.lastAt > idleMillis) {
      yield* close(current.lastAt + idleMillis)
      current = null
    }
    if (yield* importedBefore(message, options)) {
      if (options.progress !== undefined) yield* options.progress.advance()
      continue
    }
    const item = toNewMessage(message, options)
    const problem = refusal(message, item)
    if (problem !== null) {
      refused.push(problem)
      if (options.progress !== undefined) yield* options.progress.advance()
      continue
    }
    const captured = yield* Effect.withClock(capture(item), clockAt(at))
    if (captured._tag === "Recorded") {
      recorded += 1
      if (!sessions.includes(captured.sessionId)) sessions.push(captured.sessionId)
      current = { sessionId: captured.sessionId, lastAt: at }
    }
    if (options.progress !== undefined) yield* options.progress.advance()
  }
  if (current !== null) yield* close(current.lastAt + idleMillis)
  const replied = options.quiet !== true && sessions.length > 0 ? yield* queueSummary(options, recorded, sessions, refused.length) : false
  return {
    messages: ordered.length,
    recorded,
    alreadyRecorded: ordered.length - recorded - refused.length,
    sessions,
    refused,
    replied
  } satisfies ImportSummary
}) satisfies (...args: never) => Effect.Effect<ImportSummary, unknown, CaptureNeeds>

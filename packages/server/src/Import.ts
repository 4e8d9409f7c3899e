/**
 * Importing a chat export: each exported message the log does not have (see `ImportSurvey.ts`)
 * is captured as if its sender had forwarded it to the bot, into the importing user's sessions;
 * one already captured live (same sender, minute and text) or imported before is not recorded
 * again. A gap longer than the idle time starts a new
 * session, and every session the import fills is closed with reason `import`, so the plan job
 * picks it up. The clock is set to each message's own time, so receipt and close times are the
 * chat's, not the import's. Provider message ids come from the export's stable ids: importing
 * the same export again records nothing. The sessions are planned without a reply each; the import
 * queues one reply for all of them (unless `quiet`). A message a store cannot keep exactly is
 * refused by name and the rest still imports, as a webhook refuses such an item alone.
 */
import type { ExportedMessage } from "@verbatim/domain/Inbound/ChatExport"
import { ReplyId, type SessionId, userIdOf } from "@verbatim/domain/Ids"
import { importSummary } from "@verbatim/domain/ReplyText"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import { Clock, DateTime, Duration, Effect, Option } from "effect"
import { survey, type SurveyOptions, tally } from "./ImportSurvey.js"
import { capture, type CaptureNeeds, closeSession } from "./Inbox/Ingest.js"
import * as Replies from "./Replies.js"
import type { Progress } from "./Progress.js"

/** Whose sessions receive the import, and what splits it into sessions. */
export interface ImportOptions extends SurveyOptions {
  readonly idle: Duration.Duration
  /** No summary reply to the user. */
  readonly quiet?: boolean
  readonly progress?: Progress
}

/** What an import did. */
export interface ImportSummary {
  readonly messages: number
  readonly recorded: number
  /** Found in the log: `byId` + `byContent`. */
  readonly alreadyRecorded: number
  /** Found under their export ids (an earlier import of the same export). */
  readonly byId: number
  /** Found as live messages of the same sender, minute and text. */
  readonly byContent: number
  /** Commands the user typed in their chat with the bot, left out as they were live. */
  readonly commands: number
  /** Lines with the text of a reply the bot sent that minute: the bot's own, left out. */
  readonly botReplies: number
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

/** Close a session the import filled; a running server's scheduler may have closed it first (its messages are old). */
const closeImported = (sessionId: SessionId) => closeSession(sessionId, "import")

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

/** Capture the exported messages the log does not have, in time order; an open session of the user's is closed first. */
export const importMessages = Effect.fn("Import.importMessages")(function*(
  messages: ReadonlyArray<ExportedMessage>,
  options: ImportOptions
) {
  const surveyed = yield* survey(messages, options)
  const user = userIdOf(options.provider, options.senderId)
  const open = yield* Effect.flatMap(SessionLookups, (read) => read.conversationSessions({ user, provider: options.provider, chat: options.senderId }))
  if (Option.isSome(open.open)) yield* closeImported(open.open.value)
  const idleMillis = Duration.toMillis(options.idle)
  const sessions: Array<SessionId> = []
  let current: { readonly sessionId: SessionId; readonly lastAt: number } | null = null
  let recorded = 0
  const close = (at: number) =>
    current === null ? Effect.void : Effect.asVoid(Effect.withClock(closeImported(current.sessionId), clockAt(at)))
  for (const { item, message, standing } of surveyed) {
    const at = DateTime.toEpochMillis(message.sentAt)
    if (current !== null && at - current.lastAt > idleMillis) {
      yield* close(current.lastAt + idleMillis)
      current = null
    }
    if (standing._tag === "Missing") {
      const captured = yield* Effect.withClock(capture(item), clockAt(at))
      if (captured._tag === "Recorded") {
        recorded += 1
        if (!sessions.includes(captured.sessionId)) sessions.push(captured.sessionId)
        current = { sessionId: captured.sessionId, lastAt: at }
      }
    }
    if (options.progress !== undefined) yield* options.progress.advance()
  }
  if (current !== null) yield* close(current.lastAt + idleMillis)
  const counts = tally(surveyed)
  const refused = surveyed.flatMap((s) => (s.standing._tag === "Refused" ? [s.standing.why] : []))
  const replied = options.quiet !== true && sessions.length > 0 ? yield* queueSummary(options, recorded, sessions, refused.length) : false
  const alreadyRecorded = surveyed.length - recorded - refused.length - counts.Command - counts.BotReply
  return {
    messages: surveyed.length,
    recorded,
    alreadyRecorded,
    byId: alreadyRecorded - counts.ByContent,
    byContent: counts.ByContent,
    commands: counts.Command,
    botReplies: counts.BotReply,
    sessions,
    refused,
    replied
  } satisfies ImportSummary
}) satisfies (...args: never) => Effect.Effect<ImportSummary, unknown, CaptureNeeds>

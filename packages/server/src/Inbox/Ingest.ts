/**
 * Capturing what a webhook delivered: a new message joins its sender's open session (or opens
 * one), an edit is recorded against the message it changes, `/done` closes the session, `/start`
 * and `/help` queue the help reply. Each is idempotent on the provider's key.
 */
import { type MessageId, messageIdOf, ReplyId, type SessionId } from "@verbatim/domain/Ids"
import { type BotCommand, botCommand, commandArgument } from "@verbatim/domain/Inbound/Commands"
import { type Edit, editedMessage, type NewMessage } from "@verbatim/domain/Inbound/Inbound"
import * as ReplyText from "@verbatim/domain/ReplyText"
import { Command, type Rejected } from "@verbatim/domain/Session/Commands"
import { type EventStore, type StoreError } from "@verbatim/projections/EventStore"
import type { FoldCache } from "@verbatim/projections/FoldCache"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import { DateTime, Effect, Option } from "effect"
import { BotIdentity } from "../BotIdentity.js"
import { queueCommandReply } from "../Replies.js"
import { ConversationLocks } from "./ConversationLocks.js"
import { conversationKey, conversationOf, editKeyOf, keyOf, rememberOpen, targetSession } from "./Conversations.js"
import { Retry, retrying } from "../Runner.js"
import { attempt, execute } from "../Sessions.js"
import * as AskCommand from "../Ask/ChatCommand.js"
import * as ReminderCommands from "../Reminders/ChatCommands.js"
import type { ReminderBook } from "@verbatim/projections/ReminderBook"
import type { TimeZones } from "../TimeZones.js"

/** What capturing one item did. */
export type Captured =
  | { readonly _tag: "Recorded"; readonly sessionId: SessionId; readonly seq: number }
  | { readonly _tag: "AlreadyRecorded" }
  | { readonly _tag: "SessionClosed"; readonly sessionId: SessionId | null }
  | { readonly _tag: "Edited"; readonly messageId: string }
  | { readonly _tag: "EditIgnored"; readonly why: string }
  | { readonly _tag: "Helped" }

/** One attempt at a capture; `from` is the edit a message is captured from (an edit that overtook it). */
const captureAttempt = (item: NewMessage, from: Edit | null): Effect.Effect<Captured, StoreError | Rejected | Retry, EventStore | FoldCache | SessionLookups> =>
  Effect.gen(function*() {
    const conversation = conversationOf(item)
    const sessionId = yield* targetSession(conversation)
    const now = yield* DateTime.now
    const done = yield* attempt(
      sessionId,
      () => Effect.succeed(Command.Capture({ sessionId, message: item, fromEdit: from, now })),
      from === null ? [keyOf(item)] : [keyOf(item), editKeyOf(from)]
    ).pipe(Effect.tapError((e) => e instanceof Retry ? rememberOpen(conversation, null) : Effect.void))
    if (done._tag === "AlreadyRecorded") return { _tag: "AlreadyRecorded" } as const
    yield* rememberOpen(conversation, sessionId)
    const received = done.events.find((e) => e._tag === "MessageReceived")
    return { _tag: "Recorded", sessionId, seq: received?._tag === "MessageReceived" ? received.message.seq : 0 } as const
  })

/**
 * `/done`: close the open session under the command's own key, so a redelivery closes nothing
 * more. With no session open the sender is told there is nothing to file, a reply recorded under
 * the same key, so a redelivery arriving after the next session opens does not close that one.
 */
const closeAttempt = (item: NewMessage): Effect.Effect<Captured, StoreError | Rejected | Retry, EventStore | FoldCache | SessionLookups> =>
  Effect.gen(function*() {
    const conversation = conversationOf(item)
    const found = yield* Effect.flatMap(SessionLookups, (read) => read.conversationSessions(conversation))
    const now = yield* DateTime.now
    if (Option.isNone(found.open)) {
      const replied = yield* commandReply(item, "done", ReplyText.nothingToFileText)
      return replied ? { _tag: "SessionClosed", sessionId: null } as const : { _tag: "AlreadyRecorded" } as const
    }
    const sessionId = found.open.value
    const done = yield* attempt(sessionId, () => Effect.succeed(Command.Close({ reason: "command", now })), [keyOf(item)]).pipe(
      Effect.catchIf((e): e is Rejected => e._tag === "Rejected" && e.reason === "already-closed", () => Effect.fail(new Retry()))
    )
    return done._tag === "Appended" ? { _tag: "SessionClosed", sessionId } as const : { _tag: "AlreadyRecorded" } as const
  })

/** A command's reply, under an id made of the command and the message's (`done:telegram:42`). */
const commandReply = (item: NewMessage, command: string, text: string): Effect.Effect<boolean, StoreError, EventStore | FoldCache> =>
  queueCommandReply(item, ReplyId.make(`${command}:${item.provider}:${item.providerMessageId}`), text)

/** A command answered with a reply: `Helped` when its reply was queued now, else a redelivery. */
const helped = <E, R>(replied: Effect.Effect<boolean, E, R>) =>
  Effect.map(replied, (queued): Captured => (queued ? { _tag: "Helped" } : { _tag: "AlreadyRecorded" }))

/** `/start` or `/help`: the help reply. */
const helpAttempt = (item: NewMessage): Effect.Effect<Captured, StoreError, EventStore | FoldCache> =>
  Effect.map(commandReply(item, "help", ReplyText.helpText), (replied) => (replied ? { _tag: "Helped" } as const : { _tag: "AlreadyRecorded" } as const))

/** Close a session if it is still open; false when it was closed already (or never opened). */
export const closeSession = Effect.fn("Ingest.closeSession")(function*(sessionId: SessionId, reason: "idle" | "command" | "import") {
  const now = yield* DateTime.now
  return yield* execute(sessionId, () => Effect.succeed(Command.Close({ reason, now }))).pipe(
    Effect.as(true),
    Effect.catchIf((e): e is Rejected => e._tag === "Rejected" && (e.reason === "already-closed" || e.reason === "no-session"), () =>
      Effect.succeed(false))
  )
})

/** One writer per conversation in this process: captures and edits of a sender's chat queue up. */
const inConversation = (item: NewMessage | Edit) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(ConversationLocks, (locks) => locks.withLock(conversationKey(conversationOf(item)), effect))

/** The Telegram bot's username, when known (see `BotIdentity`). */
export const botUsername = Effect.map(Effect.serviceOption(BotIdentity), Option.match({ onNone: () => null, onSome: (b) => b.telegramUsername }))

/** The requirements of a capture: the store, and the reminders' read side and zones for `/tz` and `/reminders`. */
export type CaptureNeeds = EventStore | FoldCache | SessionLookups | ReminderBook | TimeZones

/** The attempt a message's command (or none: a capture) makes. */
const attemptFor = (item: NewMessage, command: BotCommand | null): Effect.Effect<Captured, StoreError | Rejected, CaptureNeeds> => {
  switch (command) {
    case "tz":
      return helped(ReminderCommands.timeZone(item, commandArgument(item)))
    case "reminders":
      return helped(ReminderCommands.upcoming(item))
    case "ask":
      return helped(AskCommand.ask(item, commandArgument(item)))
    case "done":
      return retrying(closeAttempt(item))
    case "help":
      return retrying(helpAttempt(item))
    default:
      return retrying(captureAttempt(item, null))
  }
}

/**
 * Capture a new message from an allowed sender, or close the session on `/done` (or
 * `/done@<this bot>`), or answer `/start`, `/help`, `/tz`, `/reminders` and `/ask`: commands, not
 * content. `/done@another_bot` is captured as text; `/web` is the dispatcher's.
 */
export const capture = (item: NewMessage): Effect.Effect<Captured, StoreError, CaptureNeeds> =>
  Effect.flatMap(botUsername, (bot) => attemptFor(item, botCommand(item, bot))).pipe(
    inConversation(item),
    // A capture is refused only by a bug: every refusal a capture can meet is handled above.
    Effect.catchTag("Rejected", (e) => Effect.die(e)),
    Effect.withSpan("Ingest.capture")
  )

const ignored = (why: string) => ({ _tag: "EditIgnored", why } as const)

const editAttempt = (item: Edit, mayCapture: boolean): Effect.Effect<Captured, StoreError | Rejected | Retry, EventStore | FoldCache | SessionLookups> =>
  Effect.gen(function*() {
    const id: MessageId = messageIdOf(item.provider, item.providerMessageId)
    const found = yield* Effect.flatMap(SessionLookups, (read) => read.messageSession(id))
    if (Option.isNone(found)) {
      // The edit overtook its message (or the message was never sent to us): the edited
      // message is what the sender means now, so it is captured; the original, if it comes,
      // is then a redelivery. If the original was recorded meanwhile, edit it after all.
      if (!mayCapture) return ignored("the edited message's id is recorded, but not as a message")
      const captured = yield* captureAttempt(editedMessage(item), item)
      return captured._tag === "AlreadyRecorded" ? yield* editAttempt(item, false) : captured
    }
    const done = yield* attempt(found.value, () => Effect.succeed(Command.Edit({ edit: item })), [editKeyOf(item)])
    return done._tag === "Appended" ? { _tag: "Edited", messageId: id } as const : ignored("this edit is already recorded")
  }).pipe(
    Effect.catchIf(
      (e): e is Rejected => e._tag === "Rejected" && (e.reason === "edit-ignored" || e.reason === "not-in-session"),
      (e) => Effect.succeed(ignored(e.reason === "edit-ignored" ? e.detail : "the edited message is not in its session"))
    )
  )

/**
 * Record an edit of a message we captured: the newest edit by the provider's edit time wins, an
 * older one arriving late changes nothing, and edits from someone else are ignored. An edit whose
 * message never arrived captures the message as edited.
 */
export const edit = (item: Edit): Effect.Effect<Captured, StoreError, EventStore | FoldCache | SessionLookups> =>
  retrying(editAttempt(item, true)).pipe(
    inConversation(item),
    Effect.catchTag("Rejected", (e) => Effect.die(e)),
    Effect.withSpan("Ingest.edit")
  )

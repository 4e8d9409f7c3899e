/**
 * Capturing what a webhook delivered: a new message joins its sender's open session (or opens
 * one), an edit is recorded against the message it changes. Idempotent on the provider's message
 * id, and safe under concurrency: every append names the stream version it read, and a conflict
 * is retried from a fresh read.
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { type Edit, editedMessage, type NewMessage } from "@verbatim/domain/Inbound/Inbound"
import { type MessageId, messageIdOf, type SessionId, userIdOf } from "@verbatim/domain/Ids"
import { makeInboundMessage } from "@verbatim/domain/Message"
import { EventStore, type StoreError } from "@verbatim/projections/EventStore"
import { AppendConflict } from "@verbatim/projections/EventStore"
import { DateTime, Effect, Option, Schedule } from "effect"
import * as Queries from "./SessionQueries.js"
import { ConversationLocks } from "./ConversationLocks.js"
import { sessionStream } from "./Streams.js"

/** What capturing one item did. */
export type Captured =
  | { readonly _tag: "Recorded"; readonly sessionId: SessionId; readonly seq: number }
  | { readonly _tag: "AlreadyRecorded" }
  | { readonly _tag: "SessionClosed"; readonly sessionId: SessionId | null }
  | { readonly _tag: "Edited"; readonly messageId: string }
  | { readonly _tag: "EditIgnored"; readonly why: string }

/** `/done` (or `/done@bot`), typed by the sender, closes the session at once; it is a command, not content. */
export const isDoneCommand = (item: NewMessage): boolean =>
  item.kind === "text" && item.forwardedFrom === null && /^\/done(@\w+)?$/i.test(item.text.trim())

const retryConflicts = Schedule.recurs(20)

/** Deterministic ids: two racing first messages name the same new session and one of them conflicts. */
const newSessionId = (conversation: Queries.Conversation, ordinal: number): SessionId =>
  `${conversation.provider}:${conversation.chat}:${conversation.user.split(":").slice(1).join(":")}:${ordinal}` as SessionId

/** An edit's own dedupe key: a redelivered edit appends nothing, even one older than a newer edit's time. */
const editKeyOf = (item: Edit) => ({ provider: item.provider, providerMessageId: item.editKey })

/**
 * Append a new message to its sender's open session (or a new one). `from`: the edit the message
 * was captured from, recorded with it so that an older edit arriving later changes nothing.
 */
const captureOnce = (
  item: NewMessage,
  from: Edit | null = null
): Effect.Effect<Captured, StoreError | SqlError | AppendConflict, EventStore | SqlClient> =>
  Effect.gen(function*() {
    const store = yield* EventStore
    const user = userIdOf(item.provider, item.senderId)
    const conversation: Queries.Conversation = { user, provider: item.provider, chat: item.chatId }
    const key = { provider: item.provider, providerMessageId: item.providerMessageId }
    // No separate "already recorded?" read: the append checks the key first, in its transaction.
    const found = yield* Queries.conversationState(conversation)
    const sessionId = Option.match(found.open, {
      onNone: () => newSessionId(conversation, found.count + 1),
      onSome: (open) => open.sessionId
    })
    const stream = sessionStream(sessionId)
    const version = Option.match(found.open, { onNone: () => 0, onSome: (open) => open.version })
    const now = yield* DateTime.now
    const seq = Option.match(found.open, { onNone: () => 1, onSome: (open) => open.lastSeq + 1 })
    const message = makeInboundMessage({
      id: messageIdOf(item.provider, item.providerMessageId),
      sessionId,
      seq,
      provider: item.provider,
      providerMessageId: item.providerMessageId,
      sender: user,
      chat: item.chatId,
      text: item.text,
      kind: item.kind,
      forwardedFrom: item.forwardedFrom,
      replyTo: item.replyTo,
      receivedAt: now
    })
    const opening = Option.isNone(found.open)
      ? [{ _tag: "SessionOpened" as const, sessionId, user, provider: item.provider, chat: item.chatId, openedAt: now }]
      : []
    const edited = from === null
      ? []
      : [{ _tag: "MessageEdited" as const, messageId: message.id, sessionId, text: item.text, editedAt: from.editedAt }]
    const result = yield* store.append(stream, version, [...opening, { _tag: "MessageReceived", message }, ...edited], {
      idempotencyKeys: from === null ? [key] : [key, editKeyOf(from)]
    })
    return result._tag === "Appended"
      ? ({ _tag: "Recorded", sessionId, seq } as const)
      : ({ _tag: "AlreadyRecorded" } as const)
  })

const closeOnce = (item: NewMessage): Effect.Effect<Captured, StoreError | SqlError | AppendConflict, EventStore | SqlClient> =>
  Effect.gen(function*() {
    const found = yield* Queries.openSession({
      user: userIdOf(item.provider, item.senderId),
      provider: item.provider,
      chat: item.chatId
    })
    if (Option.isNone(found.open)) return { _tag: "SessionClosed", sessionId: null } as const
    yield* closeSession(found.open.value, "command")
    return { _tag: "SessionClosed", sessionId: found.open.value } as const
  })

/** Close a session if it is still open; a conflict means it changed under us and is retried by the caller. */
export const closeSession = Effect.fn("Ingest.closeSession")(function*(
  sessionId: SessionId,
  reason: "idle" | "command" | "import"
) {
  const store = yield* EventStore
  const stream = sessionStream(sessionId)
  const events = yield* store.readStream(stream)
  if (events.some((e) => e.event._tag === "SessionClosed")) return false
  const messageCount = events.filter((e) => e.event._tag === "MessageReceived").length
  const closedAt = yield* DateTime.now
  yield* store.append(stream, events.length === 0 ? 0 : events[events.length - 1]!.version, [
    { _tag: "SessionClosed", sessionId, reason, messageCount, closedAt }
  ])
  return true
})

/** One writer per conversation in this process: captures and edits of a sender's chat queue up. */
const inConversation = (item: { readonly provider: string; readonly chatId: string; readonly senderId: string }) =>
<A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(ConversationLocks, (locks) => locks.withLock(`${item.provider}\u0000${item.chatId}\u0000${item.senderId}`, effect))

/** Run under the conversation's lock, retrying stream conflicts from a fresh read. */
const serialised = <A, E, R>(item: Parameters<typeof inConversation>[0], effect: Effect.Effect<A, E | AppendConflict, R>) =>
  effect.pipe(
    Effect.retry({ schedule: retryConflicts, while: (e) => e instanceof AppendConflict }),
    inConversation(item),
    Effect.catchIf((e): e is AppendConflict => e instanceof AppendConflict, (e) => Effect.die(e))
  )

/** Capture a new message from an allowed sender (or close the session on `/done`). */
export const capture = (
  item: NewMessage
): Effect.Effect<Captured, StoreError | SqlError, EventStore | SqlClient> =>
  serialised(item, isDoneCommand(item) ? closeOnce(item) : captureOnce(item)).pipe(Effect.withSpan("Ingest.capture"))

const editOnce = (
  item: Edit,
  mayCapture: boolean
): Effect.Effect<Captured, StoreError | SqlError | AppendConflict, EventStore | SqlClient> =>
  Effect.gen(function*() {
    const store = yield* EventStore
    const found = yield* Queries.messageByProviderId(item.provider, item.providerMessageId)
    if (Option.isNone(found)) {
      // The edit overtook its message (or the message was never sent to us): the edited
      // message is what the sender means now, so it is captured; the original, if it comes,
      // is then a redelivery. If the original was recorded meanwhile, edit it after all.
      if (!mayCapture) return { _tag: "EditIgnored", why: "the edited message's id is recorded, but not as a message" } as const
      const captured = yield* captureOnce(editedMessage(item), item)
      return captured._tag === "AlreadyRecorded" ? yield* editOnce(item, false) : captured
    }
    const message = found.value
    if (message.sender !== userIdOf(item.provider, item.senderId)) {
      return { _tag: "EditIgnored", why: "the edit comes from someone other than the sender" } as const
    }
    const editedAt = DateTime.formatIso(item.editedAt)
    if (message.editedAt !== null && editedAt < message.editedAt) {
      return { _tag: "EditIgnored", why: "a newer edit of the message is already recorded" } as const
    }
    // The same text from a newer edit is still recorded: its time keeps older edits out.
    if (message.text === item.text && editedAt === message.editedAt) {
      return { _tag: "EditIgnored", why: "the text did not change" } as const
    }
    const appended = yield* store.append(sessionStream(message.sessionId), "any", [{
      _tag: "MessageEdited",
      messageId: message.messageId as MessageId,
      sessionId: message.sessionId,
      text: item.text,
      editedAt: item.editedAt
    }], { idempotencyKeys: [editKeyOf(item)] })
    return appended._tag === "Appended"
      ? { _tag: "Edited", messageId: message.messageId } as const
      : { _tag: "EditIgnored", why: "this edit is already recorded" } as const
  })

/**
 * Record an edit of a message we captured: the newest edit by the provider's edit time wins, an
 * older one arriving late changes nothing, and edits from someone else are ignored. An edit whose
 * message never arrived captures the message as edited.
 */
export const edit = (item: Edit): Effect.Effect<Captured, StoreError | SqlError, EventStore | SqlClient> =>
  serialised(item, editOnce(item, true)).pipe(Effect.withSpan("Ingest.edit"))

/**
 * A sender's chat with the bot as a capture sees it: its key, the session it captures into (the
 * open one, remembered between captures, or the id the next one takes) and the idempotency keys
 * of what it delivers.
 */
import { SessionId, userIdOf } from "@verbatim/domain/Ids"
import type { Edit, NewMessage } from "@verbatim/domain/Inbound/Inbound"
import type { IdempotencyKey } from "@verbatim/projections/EventStore"
import { FoldCache } from "@verbatim/projections/FoldCache"
import { type Conversation, SessionLookups } from "@verbatim/projections/SessionLookups"
import { Effect, Option } from "effect"
import { knownFold } from "../Sessions.js"

/** Deterministic ids: two racing first messages name the same new session and one of them conflicts. */
export const newSessionId = (conversation: Conversation, ordinal: number): SessionId =>
  SessionId.make(`${conversation.provider}:${conversation.chat}:${conversation.user.split(":").slice(1).join(":")}:${ordinal}`)

export const conversationOf = (item: { readonly provider: NewMessage["provider"]; readonly chatId: string; readonly senderId: string }): Conversation => ({
  user: userIdOf(item.provider, item.senderId),
  provider: item.provider,
  chat: item.chatId
})

/** The conversation's key, for the remembered open session and the conversation's lock. */
export const conversationKey = (c: Conversation) => `${c.user}\u0000${c.provider}\u0000${c.chat}`

export const keyOf = (item: NewMessage | Edit): IdempotencyKey => ({ provider: item.provider, providerMessageId: item.providerMessageId })

/** An edit's own dedupe key: a redelivered edit appends nothing, even one older than a newer edit's time. */
export const editKeyOf = (item: Edit): IdempotencyKey => ({ provider: item.provider, providerMessageId: item.editKey })

/**
 * Conversations' open sessions as last captured into, so a capture reads nothing before its
 * append: a session another instance closed meanwhile makes the append conflict, and the capture
 * forgets it and looks again.
 */
const openSessions = (cache: Cache) => cache.memory<SessionId>("open-sessions", 1024)

type Cache = FoldCache["Type"]

/** The open session this process remembers the conversation capturing into, unless it knows that session closed. */
export const knownOpen = (cache: Cache, conversation: Conversation): SessionId | undefined => {
  const last = openSessions(cache).get(conversationKey(conversation))
  // A session this instance closed is known closed: the next capture looks up its successor.
  return last !== undefined && knownFold(cache, last)?.state.closed !== true ? last : undefined
}

/** Remember the session a conversation captured into, or forget it (`null`) so the next capture looks again. */
export const keepOpen = (cache: Cache, conversation: Conversation, sessionId: SessionId | null): void =>
  sessionId === null
    ? openSessions(cache).delete(conversationKey(conversation))
    : openSessions(cache).set(conversationKey(conversation), sessionId)

/** `keepOpen` in the cache of the context. */
export const rememberOpen = (conversation: Conversation, sessionId: SessionId | null) =>
  Effect.map(FoldCache, (cache) => keepOpen(cache, conversation, sessionId))

/** The conversation's open session, or the id its next session takes. */
export const targetSession = (conversation: Conversation) =>
  Effect.gen(function*() {
    const known = knownOpen(yield* FoldCache, conversation)
    if (known !== undefined) return known
    const { count, open } = yield* Effect.flatMap(SessionLookups, (read) => read.conversationSessions(conversation))
    return Option.getOrElse(open, () => newSessionId(conversation, count + 1))
  })

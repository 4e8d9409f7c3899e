/**
 * Messages composed on the web pages or posted to `POST /api/messages`: the third provider, `web`,
 * on the webhooks' own path (`Dispatch.handle`), so the same idempotency, sessions, plans,
 * questions and replies apply, and a reply is shown on the page instead of sent. Each message
 * carries an id its client chose; with the user's id it is the provider message id, so a double
 * submit records once. Closing the session is the `/done` command under the last message's id
 * (`<id>/done`), so a retried request closes nothing more.
 */
import { type MessageId, messageIdOf, type SessionId, type UserId } from "@verbatim/domain/Ids"
import type { NewMessage } from "@verbatim/domain/Inbound/Inbound"
import { noExtras } from "@verbatim/domain/Attachment"
import type { StoreError } from "@verbatim/projections/EventStore"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import { DateTime, Effect, Option } from "effect"
import * as Dispatch from "./Dispatch.js"

/** A message as its client composed it. */
export interface Composed {
  /** The client's id for it, unique among the user's messages (letters, digits, `.`, `_`, `~`, `-`). */
  readonly id: string
  readonly text: string
  readonly forwardedFrom: string | null
}

/** What became of one composed message. */
export interface ComposedOutcome {
  readonly id: string
  readonly messageId: MessageId
  /** `command`: it was `/done`, `/help` or `/web`, acted on and not captured. */
  readonly outcome: "recorded" | "already-recorded" | "command"
  readonly sessionId: SessionId | null
}

/** The web conversation's chat is its user: one conversation per user on the page. */
export const chatOf = (user: UserId): string => user

/** A composed message as the webhooks' item: sent by `user`, keyed by their id and the client's. */
export const webMessage = (user: UserId, message: Composed, now: DateTime.Utc): NewMessage => ({
  _tag: "NewMessage",
  provider: "web",
  providerMessageId: `${user}/${message.id}`,
  senderId: user,
  chatId: chatOf(user),
  senderName: null,
  text: message.text,
  kind: "text",
  forwardedFrom: message.forwardedFrom,
  replyTo: null,
  ...noExtras,
  sentAt: now
})

const outcomeOf = (handled: Dispatch.Handled): ComposedOutcome["outcome"] =>
  handled === "captured" ? "recorded" : handled === "duplicate" ? "already-recorded" : "command"

/**
 * Capture `messages` in order as `user`'s, then close the session when `close` says so. Each is
 * recorded (or found recorded) before the next is tried; the result says which.
 */
export const compose = (user: UserId, messages: ReadonlyArray<Composed>, close: boolean) =>
  Effect.gen(function*() {
    const read = yield* SessionLookups
    const outcomes: Array<ComposedOutcome> = []
    for (const message of messages) {
      const item = webMessage(user, message, yield* DateTime.now)
      const outcome = outcomeOf(yield* Dispatch.handle(item))
      const messageId = messageIdOf("web", item.providerMessageId)
      const sessionId = outcome === "command" ? null : Option.getOrNull(yield* read.messageSession(messageId))
      outcomes.push({ id: message.id, messageId, outcome, sessionId })
    }
    const last = messages.at(-1)
    if (close && last !== undefined) {
      yield* Dispatch.handle(webMessage(user, { id: `${last.id}/done`, text: "/done", forwardedFrom: null }, yield* DateTime.now))
    }
    return outcomes
  }).pipe(Effect.withSpan("Compose.compose")) satisfies Effect.Effect<ReadonlyArray<ComposedOutcome>, StoreError, unknown>

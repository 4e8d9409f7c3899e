/**
 * Sends that bypass the outbox because nothing about them is stored: the one polite refusal a
 * stranger gets, and the acknowledgement of a button press. They run in background fibers owned
 * by the server's scope, so a webhook never waits on a provider.
 */
import { type ChatProvider, userIdOf } from "@verbatim/domain/Ids"
import { Context, Effect, FiberSet, Layer } from "effect"
import { type ProviderError, TelegramClient, WhatsAppClient } from "./ProviderClients.js"
import { sendersOf } from "./Senders.js"

/** What someone not on the allow-list is told, once per process. */
export const strangerReply =
  "Sorry, this bot only files messages for the people it was set up for. Nothing you send here is stored."

export class DirectReplies extends Context.Tag("@verbatim/server/Http/DirectReplies")<DirectReplies, {
  /** Tell a sender not on the allow-list, unless this process already did. Returns at once. */
  readonly refuseStranger: (provider: ChatProvider, chatId: string, senderId: string) => Effect.Effect<void>
  /** Stop the spinner on a Telegram button press. Returns at once. */
  readonly acknowledgeCallback: (callbackId: string, text: string) => Effect.Effect<void>
  /** Take the buttons away from a Telegram question once it is answered, so it cannot be pressed again. */
  readonly removeButtons: (chatId: string, messageId: string) => Effect.Effect<void>
  /** Wait until every send started so far has finished (tests, shutdown). */
  readonly settled: Effect.Effect<void>
}>() {
  static readonly make = Effect.gen(function*() {
    const telegram = yield* TelegramClient
    const whatsApp = yield* WhatsAppClient
    const fibers = yield* FiberSet.make<void, never>()
    const told = new Set<string>()
    const background = (what: string, send: Effect.Effect<unknown, ProviderError>) =>
      FiberSet.run(
        fibers,
        send.pipe(
          Effect.asVoid,
          Effect.catchAll((error) =>
            Effect.logWarning(`${what} not sent`).pipe(
              Effect.annotateLogs({ provider: error.provider, reason: error.reason })
            )
          )
        )
      ).pipe(Effect.asVoid)
    const senders = sendersOf(telegram, whatsApp)
    return DirectReplies.of({
      refuseStranger: (provider, chatId, senderId) =>
        Effect.suspend(() => {
          const key = userIdOf(provider, senderId)
          if (told.has(key)) return Effect.void
          told.add(key)
          return background(
            "stranger refusal",
            senders[provider](chatId, strangerReply)
          )
        }),
      acknowledgeCallback: (callbackId, text) => background("callback acknowledgement", telegram.answerCallbackQuery(callbackId, text)),
      removeButtons: (chatId, messageId) => background("buttons removal", telegram.removeButtons(chatId, messageId)),
      settled: FiberSet.awaitEmpty(fibers)
    })
  })

  /** Fibers live as long as the layer's scope. */
  static readonly layer = Layer.scoped(DirectReplies, DirectReplies.make)
}

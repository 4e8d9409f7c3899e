/**
 * How a reply goes out, per chat provider, as one table typed over `ChatProvider`: a provider
 * without a sender does not compile, so no reply can be marked delivered without being sent.
 * The web pages have no sender: a reply to them is delivered by being recorded.
 */
import type { ChatProvider } from "@verbatim/domain/Ids"
import type { ReplyTemplate } from "@verbatim/domain/ReplyEvents"
import type { Effect } from "effect"
import type { Button, ProviderError, Sent, TelegramClient, WhatsAppClient } from "./ProviderClients.js"

/** Send `text` (with `buttons`, if any) to `chat`; or, where the provider has them, `template` in its place. */
export type Send = (chat: string, text: string, buttons?: ReadonlyArray<Button>, template?: ReplyTemplate) => Effect.Effect<Sent, ProviderError>

export type Senders = { readonly [P in ChatProvider]: Send }

/** Every chat provider's sender, from its client. */
export const sendersOf = (telegram: TelegramClient["Type"], whatsApp: WhatsAppClient["Type"]): Senders => ({
  telegram: telegram.sendMessage,
  whatsapp: whatsApp.sendMessage
})

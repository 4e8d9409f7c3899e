/**
 * What the domain knows of each chat provider, as one record per provider in one table typed
 * over `ChatProvider`: a provider added to the type and missing here does not compile. How its
 * webhook body becomes inbound items, how long a reply it delivers, and whether a command may
 * name the bot. Everything that differs by provider is looked up here, never chosen by `===`.
 */
import { DateTime, Either } from "effect"
import type { ChatProvider, Provider } from "../Ids.js"
import type { Rate } from "../Reply/Pacing.js"
import { decodeTelegram, decodeWhatsApp, type WebhookDecodeError } from "./Decode.js"
import type { Inbound } from "./Inbound.js"
import { normaliseTelegram } from "./normaliseTelegram.js"
import { normaliseWhatsApp } from "./normaliseWhatsApp.js"

export interface ChatProviderRules {
  /** A webhook body's text as inbound items; `receivedAt` stands for times the body lacks. */
  readonly normalise: (body: string, receivedAt: DateTime.Utc) => Either.Either<ReadonlyArray<Inbound>, WebhookDecodeError>
  /** The longest reply text it delivers, in UTF-16 code units, without and with choices (buttons or a list). */
  readonly replyLimit: { readonly plain: number; readonly withChoices: number }
  /** Whether a command may name the bot (`/done@verbatim_bot`, as Telegram groups do). */
  readonly namedCommands: boolean
  /**
   * How long after the user's last message it takes free-form messages from the bot (WhatsApp's
   * 24-hour customer service window; past it, only an approved template); null when it always does.
   */
  readonly freeFormWindowMillis: number | null
  /** How fast it takes the bot's messages: overall, and to one chat (see `Reply/Pacing`). */
  readonly sendRate: { readonly overall: Rate; readonly perChat: Rate }
}

export const chatProviderRules: { readonly [P in ChatProvider]: ChatProviderRules } = {
  telegram: {
    normalise: (body, receivedAt) => Either.map(decodeTelegram(body), (update) => normaliseTelegram(update, receivedAt)),
    // A message's text: 4,096 characters, with an inline keyboard or not.
    replyLimit: { plain: 4096, withChoices: 4096 },
    namedCommands: true,
    freeFormWindowMillis: null,
    // The Bot API FAQ: no more than 30 messages a second overall, about one a second in a chat (short bursts allowed).
    sendRate: { overall: { perSecond: 30, burst: 1 }, perChat: { perSecond: 1, burst: 3 } }
  },
  whatsapp: {
    normalise: (body) => Either.map(decodeWhatsApp(body), normaliseWhatsApp),
    // A text body 4,096; an interactive (buttons or a list) body 1,024.
    replyLimit: { plain: 4096, withChoices: 1024 },
    namedCommands: false,
    freeFormWindowMillis: 24 * 3_600_000,
    // Cloud API throughput: 80 messages a second by default; to one user, about one every 6 seconds after a short burst.
    sendRate: { overall: { perSecond: 80, burst: 1 }, perChat: { perSecond: 1 / 6, burst: 10 } }
  }
}

/** The chat providers, in the table's order. */
export const chatProviders = Object.keys(chatProviderRules) as ReadonlyArray<ChatProvider>

/** Whether a provider is a chat provider (not the web pages). */
export const isChatProvider = (provider: string): provider is ChatProvider => Object.hasOwn(chatProviderRules, provider)

/** The web pages take any reply a chat would. */
const webReplyLimit = 4096

/** How long after the user's last message `provider` takes free-form messages; null when always (the web pages too). */
export const freeFormWindowOf = (provider: Provider): number | null =>
  isChatProvider(provider) ? chatProviderRules[provider].freeFormWindowMillis : null

/** The longest reply text `provider` delivers. */
export const replyLimitOf = (provider: Provider, withChoices: boolean): number =>
  isChatProvider(provider) ? chatProviderRules[provider].replyLimit[withChoices ? "withChoices" : "plain"] : webReplyLimit

/** Outbound: sending replies and buttons through the Telegram Bot API and the WhatsApp Cloud API. */
import { HttpClient, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import type { Provider } from "@verbatim/domain/Ids"
import type { ReplyTemplate } from "@verbatim/domain/ReplyEvents"
import { Context, Data, Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import { ServerConfig } from "../ServerConfig.js"
import { whatsAppMessage } from "../internal/whatsAppMessage.js"

/** A button offered under a reply: what the user sees and what comes back when pressed. */
export interface Button {
  readonly label: string
  readonly data: string
  /** A link the button opens instead of sending `data` back (Telegram); other providers leave it out. */
  readonly url?: string
}

/** The bot itself, as Telegram's `getMe` describes it (a bot always has a username). */
export interface TelegramBot {
  readonly id: number
  readonly username: string
}

/** The provider's id of a message we sent (Telegram `chatId:message_id`, WhatsApp `wamid`). */
export interface Sent {
  readonly providerMessageId: string
}

/**
 * A send that did not go through. `retryable` says whether the same request may succeed later
 * (rate limits, outages, timeouts); the rest need a change first (configuration, request).
 */
export class ProviderError extends Data.TaggedError("ProviderError")<{
  readonly provider: Provider
  readonly reason: "not-configured" | "invalid-request" | "rate-limited" | "unavailable" | "rejected" | "unexpected-response"
  readonly retryable: boolean
  /** HTTP status, when the provider answered. */
  readonly status: number | null
  /** Seconds the provider asked us to wait, when it said. */
  readonly retryAfterSeconds: number | null
  readonly detail: string
}> {}

/** Every ProviderError is built here, so equal failures are equal values (field order included). */
const providerError = (
  provider: Provider,
  reason: ProviderError["reason"],
  retryable: boolean,
  status: number | null,
  detail: string,
  retryAfterSeconds: number | null = null
) => new ProviderError({ provider, reason, retryable, status, retryAfterSeconds, detail })

const timeout = Duration.seconds(15)

const TelegramFailure = Schema.Struct({
  description: Schema.optional(Schema.String),
  parameters: Schema.optional(Schema.Struct({ retry_after: Schema.optional(Schema.Number) }))
})
const GraphFailure = Schema.Struct({
  error: Schema.optional(Schema.Struct({ message: Schema.optional(Schema.String), code: Schema.optional(Schema.Number) }))
})
const TelegramSent = Schema.Struct({ result: Schema.Struct({ message_id: Schema.Number, chat: Schema.Struct({ id: Schema.Number }) }) })
const TelegramMe = Schema.Struct({ result: Schema.Struct({ id: Schema.Number, username: Schema.String }) })
const WhatsAppSent = Schema.Struct({ messages: Schema.NonEmptyArray(Schema.Struct({ id: Schema.String })) })

/** Graph error codes that mean "slow down" even when the status is 400. */
const graphRateLimitCodes = new Set([4, 80007, 130429, 131048, 131056])

type Failure = { readonly detail: string; readonly retryAfterSeconds: number | null; readonly rateLimited: boolean }

/**
 * Post JSON and decode a 2xx body; classify everything else. A 2xx whose body does not decode is
 * not retried: the message may well have been sent, and a retry could send it twice.
 */
const postJson = <A, I>(
  client: HttpClient.HttpClient,
  provider: Provider,
  request: HttpClientRequest.HttpClientRequest,
  success: Schema.Schema<A, I>,
  failure: (body: unknown, response: HttpClientResponse.HttpClientResponse) => Failure
): Effect.Effect<A, ProviderError> => {
  const error = (reason: ProviderError["reason"], retryable: boolean, status: number | null, detail: string, retryAfterSeconds: number | null = null) =>
    providerError(provider, reason, retryable, status, detail, retryAfterSeconds)
  return client.execute(request).pipe(
    // Transport failures (refused, reset): the provider may be back shortly. The detail leaves
    // out the URL, which holds the Telegram bot token.
    Effect.mapError((cause) => error("unavailable", true, null, `${cause.reason} error reaching the ${provider} API`)),
    Effect.timeoutFail({ duration: timeout, onTimeout: () => error("unavailable", true, null, `no answer within ${Duration.format(timeout)}`) }),
    Effect.flatMap((response) =>
      response.json.pipe(
        Effect.orElseSucceed((): unknown => null),
        Effect.flatMap((body) => {
          if (response.status >= 200 && response.status < 300) {
            return Schema.decodeUnknown(success)(body).pipe(
              Effect.mapError((cause) => error("unexpected-response", false, response.status, cause.message))
            )
          }
          const { detail, rateLimited, retryAfterSeconds } = failure(body, response)
          if (response.status === 429 || rateLimited) return Effect.fail(error("rate-limited", true, response.status, detail, retryAfterSeconds))
          if (response.status >= 500) return Effect.fail(error("unavailable", true, response.status, detail, retryAfterSeconds))
          return Effect.fail(error("rejected", false, response.status, detail))
        })
      )
    )
  )
}

const notConfigured = (provider: Provider, detail: string) => Effect.fail(providerError(provider, "not-configured", false, null, detail))

const retryAfterHeader = (response: HttpClientResponse.HttpClientResponse): number | null => {
  const seconds = Number(response.headers["retry-after"])
  return Number.isFinite(seconds) ? seconds : null
}

export class TelegramClient extends Context.Tag("@verbatim/server/TelegramClient")<TelegramClient, {
  /** Send `text`, with one inline-keyboard row per button (its `data` comes back as callback data). */
  readonly sendMessage: (chatId: string, text: string, buttons?: ReadonlyArray<Button>) => Effect.Effect<Sent, ProviderError>
  /** Acknowledge a button press so the client stops its spinner; `text` shows as a brief notice. */
  readonly answerCallbackQuery: (callbackId: string, text?: string) => Effect.Effect<void, ProviderError>
  /** Take the buttons away from a message the bot sent (a question once answered). */
  readonly removeButtons: (chatId: string, messageId: string) => Effect.Effect<void, ProviderError>
  /** Who the bot is: its id and the username groups address it by (`/done@username`). */
  readonly getMe: Effect.Effect<TelegramBot, ProviderError>
}>() {
  static readonly make = Effect.gen(function*() {
    const settings = yield* ServerConfig
    // The bot token is part of the URL: keep it out of request spans.
    const client = (yield* HttpClient.HttpClient).pipe(HttpClient.withTracerDisabledWhen(() => true))
    const call = <A, I>(method: string, body: unknown, success: Schema.Schema<A, I>) =>
      Option.match(settings.telegramBotToken, {
        onNone: () => notConfigured("telegram", "TELEGRAM_BOT_TOKEN is not set"),
        onSome: (token) =>
          postJson(
            client,
            "telegram",
            HttpClientRequest.post(`${settings.telegramApiBase}/bot${Redacted.value(token)}/${method}`).pipe(HttpClientRequest.bodyUnsafeJson(body)),
            success,
            (failure, response) => {
              const decoded = Schema.decodeUnknownOption(TelegramFailure)(failure)
              const parsed = Option.getOrUndefined(decoded)
              return {
                detail: parsed?.description ?? `HTTP ${response.status}`,
                retryAfterSeconds: parsed?.parameters?.retry_after ?? retryAfterHeader(response),
                rateLimited: false
              }
            }
          )
      })
    return TelegramClient.of({
      sendMessage: Effect.fn("TelegramClient.sendMessage")(function*(chatId, text, buttons = []) {
        const keyboard = buttons.map((button) => [button.url === undefined ? { text: button.label, callback_data: button.data } : { text: button.label, url: button.url }])
        const body = { chat_id: chatId, text, ...(keyboard.length === 0 ? {} : { reply_markup: { inline_keyboard: keyboard } }) }
        const sent = yield* call("sendMessage", body, TelegramSent)
        return { providerMessageId: `${sent.result.chat.id}:${sent.result.message_id}` }
      }),
      answerCallbackQuery: Effect.fn("TelegramClient.answerCallbackQuery")(function*(callbackId, text) {
        yield* call("answerCallbackQuery", { callback_query_id: callbackId, ...(text === undefined ? {} : { text }) }, Schema.Unknown)
      }),
      removeButtons: Effect.fn("TelegramClient.removeButtons")(function*(chatId, messageId) {
        yield* call("editMessageReplyMarkup", { chat_id: chatId, message_id: Number(messageId), reply_markup: { inline_keyboard: [] } }, Schema.Unknown)
      }),
      getMe: Effect.map(call("getMe", {}, TelegramMe), ({ result }) => ({ id: result.id, username: result.username })).pipe(
        Effect.withSpan("TelegramClient.getMe")
      )
    })
  })

  /** Token and base URL from `ServerConfig`. */
  static readonly layer = Layer.effect(TelegramClient, TelegramClient.make)
}

export class WhatsAppClient extends Context.Tag("@verbatim/server/WhatsAppClient")<WhatsAppClient, {
  /** Send `text`; up to 3 buttons as reply buttons, more as a list (at most 10 choices); or `template` in its place. */
  readonly sendMessage: (to: string, text: string, buttons?: ReadonlyArray<Button>, template?: ReplyTemplate) => Effect.Effect<Sent, ProviderError>
}>() {
  static readonly make = Effect.gen(function*() {
    const settings = yield* ServerConfig
    const client = yield* HttpClient.HttpClient
    return WhatsAppClient.of({
      sendMessage: Effect.fn("WhatsAppClient.sendMessage")(function*(to, text, buttons = [], template) {
        if (Option.isNone(settings.whatsAppAccessToken) || Option.isNone(settings.whatsAppPhoneNumberId)) {
          return yield* notConfigured("whatsapp", "WHATSAPP_ACCESS_TOKEN or WHATSAPP_PHONE_NUMBER_ID is not set")
        }
        // WhatsApp cannot put a link button beside reply buttons: the text carries the link.
        const body = whatsAppMessage(to, text, buttons.filter((b) => b.url === undefined), template)
        if (body === null) {
          const detail = `${buttons.length} choices: a WhatsApp list holds at most 10`
          return yield* providerError("whatsapp", "invalid-request", false, null, detail)
        }
        const request = HttpClientRequest.post(`${settings.whatsAppApiBase}/${settings.whatsAppPhoneNumberId.value}/messages`).pipe(
          HttpClientRequest.bearerToken(Redacted.value(settings.whatsAppAccessToken.value)),
          HttpClientRequest.bodyUnsafeJson(body)
        )
        const sent = yield* postJson(client, "whatsapp", request, WhatsAppSent, (failure, response) => {
          const error = Option.getOrUndefined(Schema.decodeUnknownOption(GraphFailure)(failure))?.error
          return {
            detail: error?.message ?? `HTTP ${response.status}`,
            retryAfterSeconds: retryAfterHeader(response),
            rateLimited: error?.code !== undefined && graphRateLimitCodes.has(error.code)
          }
        })
        return { providerMessageId: sent.messages[0].id }
      })
    })
  })

  /** Access token, phone number id and base URL from `ServerConfig`. */
  static readonly layer = Layer.effect(WhatsAppClient, WhatsAppClient.make)
}

/**
 * Who this bot is to the people writing to it: the Telegram username a group addresses it by
 * (`/done@username`), so a command meant for another bot in the same group is not taken as ours.
 */
import { Config, Context, Effect, Layer, Option } from "effect"
import { ProviderError, TelegramClient } from "./Providers/ProviderClients.js"
import { ServerConfig } from "./ServerConfig.js"

/** `TELEGRAM_BOT_USERNAME`, with or without its leading `@`; unset, it is asked of Telegram. */
export const config: Config.Config<Option.Option<string>> = Config.option(
  Config.string("TELEGRAM_BOT_USERNAME").pipe(
    Config.validate({
      message: "must be the bot's username: letters, digits and underscores (verbatim_bot), with or without a leading @",
      validation: (name) => /^@?\w+$/.test(name)
    }),
    Config.map((name) => name.replace(/^@/, ""))
  )
)

export class BotIdentity extends Context.Tag("@verbatim/server/BotIdentity")<BotIdentity, {
  /** The Telegram bot's username without `@`, or null when unknown (then only a plain `/done` closes). */
  readonly telegramUsername: string | null
}>() {
  /**
   * The configured username, else the one Telegram's `getMe` gives, asked once here when a bot
   * token is set. A failed `getMe` is a warning, not a failed start: commands then work unaddressed.
   */
  static readonly make = Effect.gen(function*() {
    const configured = yield* config
    if (Option.isSome(configured)) return BotIdentity.of({ telegramUsername: configured.value })
    const settings = yield* ServerConfig
    if (Option.isNone(settings.telegramBotToken)) return BotIdentity.of({ telegramUsername: null })
    const telegram = yield* TelegramClient
    // Bounded, so a Telegram that does not answer holds start-up seconds, not the client's whole timeout.
    const username = yield* telegram.getMe.pipe(
      Effect.timeoutFail({
        duration: "5 seconds",
        onTimeout: () =>
          new ProviderError({
            provider: "telegram",
            reason: "unavailable",
            retryable: true,
            status: null,
            retryAfterSeconds: null,
            detail: "no answer within 5 s"
          })
      }),
      Effect.map((bot) => bot.username),
      Effect.catchAll((error) =>
        Effect.as(
          Effect.logWarning("Telegram getMe failed: only a plain /done closes a session; set TELEGRAM_BOT_USERNAME to fix").pipe(
            Effect.annotateLogs({ reason: error.reason, detail: error.detail })
          ),
          null
        )
      )
    )
    return BotIdentity.of({ telegramUsername: username })
  }).pipe(Effect.withSpan("BotIdentity.make"))

  /** From `TELEGRAM_BOT_USERNAME` or `getMe`, once, when the layer is built. */
  static readonly layer = Layer.effect(BotIdentity, BotIdentity.make)

  /** A fixed identity for tests. */
  static readonly layerTest = (telegramUsername: string | null) => Layer.succeed(BotIdentity, BotIdentity.of({ telegramUsername }))
}

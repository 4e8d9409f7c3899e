import { describe, expect, it } from "@effect/vitest"
import { FakeTelegram, fakeBot } from "@verbatim/testkit/FakeTelegram"
import { ConfigProvider, Effect, Either, Fiber, HashMap, Layer, Logger, Option, Redacted, TestClock } from "effect"
import { BotIdentity } from "../src/BotIdentity.js"
import { TelegramClient } from "../src/Providers/ProviderClients.js"
import { ServerConfig } from "../src/ServerConfig.js"
import { telegramSettings, withClients } from "./clientLayers.js"

/** The identity the layer builds, read twice, under `env` as the configuration. */
const identity = (env: Record<string, string>, settings: Parameters<typeof withClients>[0]) =>
  Effect.gen(function*() {
    const first = yield* BotIdentity
    const second = yield* BotIdentity
    return [first.telegramUsername, second.telegramUsername]
  }).pipe(
    Effect.provide(BotIdentity.layer.pipe(Layer.provide(withClients(settings)), Layer.provide(ServerConfig.layerTest(settings)))),
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))
  )

/** Every log line written while `effect` runs: level, message and annotations. */
const logged = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const lines: Array<unknown> = []
    const logger = Logger.make(({ annotations, logLevel, message }) => {
      lines.push({ level: logLevel.label, message: [message].flat(), annotations: Object.fromEntries(HashMap.toEntries(annotations)) })
    })
    const result = yield* effect.pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger)))
    return { result, lines }
  })

describe("BotIdentity", () => {
  it.scoped("TELEGRAM_BOT_USERNAME wins, with its @ dropped; Telegram is not asked", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTelegram.make()
      expect(yield* identity({ TELEGRAM_BOT_USERNAME: "@Verbatim_Bot" }, telegramSettings(fake))).toEqual(["Verbatim_Bot", "Verbatim_Bot"])
      expect(yield* fake.calls).toEqual([])
    }))

  it.scoped("unset, the username is asked of Telegram's getMe once, at start-up", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTelegram.make()
      expect(yield* identity({}, telegramSettings(fake))).toEqual([fakeBot.username, fakeBot.username])
      expect(yield* fake.calls).toEqual([{ method: "getMe", token: fake.token, body: {} }])
    }))

  it.scoped("a failing getMe leaves the username unknown and says so in a warning", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTelegram.make()
      yield* fake.failNext(1, "server")
      expect(yield* logged(identity({}, telegramSettings(fake)))).toEqual({
        result: [null, null],
        lines: [{
          level: "WARN",
          message: ["Telegram getMe failed: only a plain /done closes a session; set TELEGRAM_BOT_USERNAME to fix"],
          annotations: { reason: "unavailable", detail: "Internal Server Error" }
        }]
      })
      expect(yield* fake.calls).toEqual([{ method: "getMe", token: fake.token, body: {} }])
    }))

  it.effect("with no bot token and no username, it is unknown and nothing is asked", () =>
    Effect.gen(function*() {
      expect(yield* logged(identity({}, {}))).toEqual({ result: [null, null], lines: [] })
    }))

  it.effect("a username that is not one stops start-up, naming the variable", () =>
    Effect.gen(function*() {
      const refused = yield* Effect.either(identity({ TELEGRAM_BOT_USERNAME: "verbatim bot" }, {}))
      expect(Either.mapLeft(refused, String)).toEqual(Either.left(
        "(Invalid data at TELEGRAM_BOT_USERNAME: \"must be the bot's username: letters, digits and underscores (verbatim_bot), with or without a leading @\")"
      ))
    }))

  it.effect("a getMe that never answers holds start-up five seconds, then the username is unknown", () =>
    Effect.gen(function*() {
      const silent = Layer.succeed(TelegramClient, { getMe: Effect.never } as unknown as TelegramClient["Type"])
      const settings = ServerConfig.layerTest({ telegramBotToken: Option.some(Redacted.make("t")) })
      const built = yield* Effect.fork(logged(Effect.map(BotIdentity, (b) => b.telegramUsername).pipe(
        Effect.provide(BotIdentity.layer.pipe(Layer.provide(Layer.merge(silent, settings)))),
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map()))
      )))
      yield* TestClock.adjust("5 seconds")
      expect(yield* Fiber.join(built)).toEqual({
        result: null,
        lines: [{
          level: "WARN",
          message: ["Telegram getMe failed: only a plain /done closes a session; set TELEGRAM_BOT_USERNAME to fix"],
          annotations: { reason: "unavailable", detail: "no answer within 5 s" }
        }]
      })
    }))
})

import { describe, expect, it } from "@effect/vitest"
import { FakeTelegram } from "@verbatim/testkit/FakeTelegram"
import { Effect, Either, Option, Redacted } from "effect"
import { TelegramClient } from "../src/Providers/ProviderClients.js"
import type { ServerSettings } from "../src/ServerConfig.js"
import { failure, telegramSettings, withClients } from "./clientLayers.js"

describe("TelegramClient against a fake Bot API", () => {
  it.scoped("sends text with one inline-keyboard row per button, then acknowledges a press", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTelegram.make()
      const sent = yield* Effect.gen(function*() {
        const telegram = yield* TelegramClient
        const first = yield* telegram.sendMessage("100000001", "Who is this about?", [
          { label: "Alice", data: "q_1:person:Alice" },
          { label: "Keep as my own note", data: "q_1:unattached" }
        ])
        const second = yield* telegram.sendMessage("100000001", "Added 1 note: Alice.")
        yield* telegram.answerCallbackQuery("4382bfdwdsb323b2d9", "Saved")
        return [first, second]
      }).pipe(Effect.provide(withClients(telegramSettings(fake))))
      expect(sent).toEqual([{ providerMessageId: "100000001:1" }, { providerMessageId: "100000001:2" }])
      expect(yield* fake.calls).toEqual([
        {
          method: "sendMessage",
          token: fake.token,
          body: {
            chat_id: "100000001",
            text: "Who is this about?",
            reply_markup: {
              inline_keyboard: [
                [{ text: "Alice", callback_data: "q_1:person:Alice" }],
                [{ text: "Keep as my own note", callback_data: "q_1:unattached" }]
              ]
            }
          }
        },
        { method: "sendMessage", token: fake.token, body: { chat_id: "100000001", text: "Added 1 note: Alice." } },
        { method: "answerCallbackQuery", token: fake.token, body: { callback_query_id: "4382bfdwdsb323b2d9", text: "Saved" } }
      ])
    }))

  it.scoped("tells retryable failures from permanent ones, and a retry gets through once the fake recovers", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTelegram.make()
      yield* fake.failNext(1, "rate-limited")
      yield* fake.failNext(1, "server")
      yield* fake.failNext(1, "bad-request")
      yield* fake.failNext(2, "server")
      const results = yield* Effect.gen(function*() {
        const telegram = yield* TelegramClient
        const send = Effect.either(telegram.sendMessage("100000001", "hi"))
        const failures = [yield* send, yield* send, yield* send]
        const retried = yield* Effect.either(
          telegram.sendMessage("100000001", "hi").pipe(Effect.retry({ while: (error) => error.retryable, times: 3 }))
        )
        return [...failures, retried]
      }).pipe(Effect.provide(withClients(telegramSettings(fake))))
      expect(results).toEqual([
        failure({ provider: "telegram", reason: "rate-limited", retryable: true, status: 429, retryAfterSeconds: 7, detail: "Too Many Requests: retry after 7" }),
        failure({ provider: "telegram", reason: "unavailable", retryable: true, status: 500, detail: "Internal Server Error" }),
        failure({ provider: "telegram", reason: "rejected", retryable: false, status: 400, detail: "Bad Request: chat not found" }),
        Either.right({ providerMessageId: "100000001:1" })
      ])
      expect((yield* fake.calls).length).toBe(6)
    }))

  it.scoped("getMe reads the bot's id and username", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTelegram.make()
      const me = yield* Effect.flatMap(TelegramClient, (telegram) => telegram.getMe).pipe(Effect.provide(withClients(telegramSettings(fake))))
      expect(me).toEqual({ id: 123456, username: "verbatim_bot" })
      expect(yield* fake.calls).toEqual([{ method: "getMe", token: fake.token, body: {} }])
    }))

  it.scoped("a wrong token is permanent; no token sends nothing; an unreachable API is retryable", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTelegram.make()
      const send = (settings: Partial<ServerSettings>) =>
        Effect.flatMap(TelegramClient, (telegram) => Effect.either(telegram.sendMessage("1", "hi"))).pipe(Effect.provide(withClients(settings)))
      const results = [
        yield* send({ ...telegramSettings(fake), telegramBotToken: Option.some(Redacted.make("999:WRONG")) }),
        yield* send({ telegramApiBase: fake.baseUrl }),
        yield* send({ telegramApiBase: "http://127.0.0.1:1", telegramBotToken: Option.some(Redacted.make(fake.token)) })
      ]
      expect(results).toEqual([
        failure({ provider: "telegram", reason: "rejected", retryable: false, status: 401, detail: "Unauthorized" }),
        failure({ provider: "telegram", reason: "not-configured", retryable: false, status: null, detail: "TELEGRAM_BOT_TOKEN is not set" }),
        failure({ provider: "telegram", reason: "unavailable", retryable: true, status: null, detail: "Transport error reaching the telegram API" })
      ])
      expect((yield* fake.calls).map((call) => call.token)).toEqual(["999:WRONG"])
    }))
})

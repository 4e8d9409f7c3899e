/**
 * The outbox keeps to Telegram's rate limits (about 30 messages a second overall, one a second in
 * a chat after a short burst) against a fake Bot API that refuses what goes over them with 429, as
 * Telegram does: a burst of replies to many chats, and several to one chat, all go out, none
 * refused, none twice, spaced as the limits say. On the live clock.
 */
import { describe, expect, it } from "@effect/vitest"
import { ReplyId, UserId } from "@verbatim/domain/Ids"
import { chatProviderRules } from "@verbatim/domain/Inbound/Providers"
import { FakeTelegram } from "@verbatim/testkit/FakeTelegram"
import { Clock, ConfigProvider, Effect, Fiber, TestClock } from "effect"
import { Pacer } from "../src/Providers/Pacer.js"
import * as Replies from "../src/Replies.js"
import { drain, layer, telegramCalls } from "./harness.js"

const reply = (n: number, chat: string) =>
  Replies.queue({
    replyId: ReplyId.make(`burst-${n}`),
    user: UserId.make(`telegram:${chat}`),
    provider: "telegram",
    chat,
    text: `Reminder ${n}`,
    buttons: [],
    questionId: null
  })

describe("the outbox's pacing", () => {
  it.live("sends a burst of 60 replies to 55 chats and 6 to one chat without a 429, each once, at most 30 a second and one a second in a chat after 3", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTelegram
      yield* fake.enforceRates(chatProviderRules.telegram.sendRate)
      for (let n = 0; n < 60; n++) yield* reply(n, n < 6 ? "100000001" : String(200000000 + n))
      const started = Date.now()
      let sent = 0
      while (sent < 60 && Date.now() - started < 20_000) sent += (yield* drain).sent
      const elapsed = Date.now() - started
      const texts = (yield* telegramCalls).filter((c) => c.method === "sendMessage").map((c) => (c.body as { text: string }).text)
      expect({ sent, refused: yield* fake.refusedForRate }).toEqual({ sent: 60, refused: 0 })
      expect([...texts].sort()).toEqual(Array.from({ length: 60 }, (_, n) => `Reminder ${n}`).sort())
      // 60 at 30 a second take about 2 seconds; the one chat's 6th goes 3 seconds after its first.
      expect(elapsed).toBeGreaterThanOrEqual(1_900)
    }).pipe(Effect.provide(layer([], { paced: true }))), 30_000)

  /** Five sends to one chat through the pacer `env` configures. */
  const fiveToOneChat = (env: ReadonlyArray<readonly [string, string]>) =>
    Effect.gen(function*() {
      const pacer = yield* Pacer
      for (let n = 0; n < 5; n++) yield* pacer.slot("telegram", "100000001")
    }).pipe(Effect.provide(Pacer.layerConfig), Effect.withConfigProvider(ConfigProvider.fromMap(new Map(env))))

  it.effect("paced unless VERBATIM_PACE_REPLIES is false: then five sends to one chat go at once", () =>
    Effect.gen(function*() {
      const paced = yield* Effect.fork(fiveToOneChat([]))
      yield* TestClock.adjust("500 millis")
      expect(paced.unsafePoll()).toBeNull()
      yield* TestClock.adjust("5 seconds")
      yield* Fiber.join(paced)
      const before = yield* Clock.currentTimeMillis
      yield* fiveToOneChat([["VERBATIM_PACE_REPLIES", "false"]])
      expect(yield* Clock.currentTimeMillis).toBe(before)
    }))
})

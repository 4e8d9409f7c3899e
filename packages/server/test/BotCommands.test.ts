/**
 * `/done`, `/start` and `/help` through the real webhook: recorded once by their provider key, so
 * a redelivery does nothing more, and obeyed only when addressed to this bot (the fake
 * Telegram's `getMe` names it `verbatim_bot`).
 */
import { describe, expect, it } from "@effect/vitest"
import * as ReplyText from "@verbatim/domain/ReplyText"
import { Effect } from "effect"
import { drain, eventLog, layer, telegram, telegramCalls } from "./harness.js"

const update = (updateId: number, messageId: number, body: string) =>
  JSON.stringify({
    update_id: updateId,
    message: {
      message_id: messageId,
      from: { id: 100000001, is_bot: false, first_name: "Alice" },
      chat: { id: 100000001, type: "private", first_name: "Alice" },
      date: 1767225600,
      text: body
    }
  })

const first = "session-telegram:100000001:100000001:1"
const second = "session-telegram:100000001:100000001:2"

const postAll = (...bodies: ReadonlyArray<string>) =>
  Effect.forEach(bodies, (body) => Effect.map(telegram(body), (reply) => expect(reply).toEqual({ status: 200, body: "" })), {
    discard: true
  })

describe("/done", () => {
  it.effect("redelivered after the next session opened closes nothing", () =>
    Effect.gen(function*() {
      const done = update(900001, 11, "/done")
      yield* postAll(update(900000, 10, "Ana moved to Porto."), done, update(900002, 12, "Bea called."), done)
      expect(yield* eventLog).toEqual([
        `${first}#1 SessionOpened`,
        `${first}#2 MessageReceived`,
        `${first}#3 SessionClosed`,
        `${second}#1 SessionOpened`,
        `${second}#2 MessageReceived`
      ])
    }).pipe(Effect.provide(layer([]))))

  it.effect("with nothing open says there is nothing to file, once; its redelivery does not close the session opened after it", () =>
    Effect.gen(function*() {
      const done = update(900001, 11, "/done")
      yield* postAll(done, update(900002, 12, "Bea called."), done)
      expect(yield* eventLog).toEqual([
        "reply-done:telegram:100000001:11#1 ReplyQueued",
        `${first}#1 SessionOpened`,
        `${first}#2 MessageReceived`
      ])
      yield* drain
      expect((yield* telegramCalls).filter((c) => c.method === "sendMessage").map((c) => c.body)).toEqual([
        { chat_id: "100000001", text: "Nothing to file: send me something first." }
      ])
    }).pipe(Effect.provide(layer([]))))

  it.effect("addressed to another bot is captured as text; addressed to this bot it closes", () =>
    Effect.gen(function*() {
      yield* postAll(update(900000, 10, "/done@other_bot"), update(900001, 11, "/done@Verbatim_Bot"))
      expect(yield* eventLog).toEqual([`${first}#1 SessionOpened`, `${first}#2 MessageReceived`, `${first}#3 SessionClosed`])
    }).pipe(Effect.provide(layer([]))))
})

describe("/start and /help", () => {
  it.effect("answer with the help text once each, redelivered or not, and are not captured", () =>
    Effect.gen(function*() {
      const start = update(900001, 11, "/start")
      yield* postAll(start, start, update(900002, 12, "/help@Verbatim_Bot"), update(900003, 13, "Ana moved to Porto."))
      expect(yield* eventLog).toEqual([
        "reply-help:telegram:100000001:11#1 ReplyQueued",
        "reply-help:telegram:100000001:12#1 ReplyQueued",
        `${first}#1 SessionOpened`,
        `${first}#2 MessageReceived`
      ])
      yield* drain
      const help = { method: "sendMessage", body: { chat_id: "100000001", text: ReplyText.helpText } }
      expect((yield* telegramCalls).filter((c) => c.method === "sendMessage")).toEqual([help, help])
    }).pipe(Effect.provide(layer([]))))

  it.effect("addressed to another bot is captured as text", () =>
    Effect.gen(function*() {
      yield* postAll(update(900001, 11, "/help@other_bot"))
      expect(yield* eventLog).toEqual([`${first}#1 SessionOpened`, `${first}#2 MessageReceived`])
    }).pipe(Effect.provide(layer([]))))
})

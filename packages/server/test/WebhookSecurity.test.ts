/** Refused webhooks through the real HTTP server: the right status, and the event log unchanged. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { connect } from "node:net"
import { strangerReply } from "../src/Providers/DirectReplies.js"
import { whatsAppSignature } from "../src/Providers/WebhookAuth.js"
import { capturedTexts, eventLog, fixture, Harness, layer, post, settled, telegram, telegramCalls, telegramSecret, whatsApp, whatsAppAppSecret } from "./harness.js"

const telegramText = (senderId: number, text: string) =>
  JSON.stringify({
    update_id: 1,
    message: {
      message_id: 1,
      from: { id: senderId, is_bot: false, first_name: "Zoë" },
      chat: { id: senderId, type: "private" },
      date: 1767225600,
      text
    }
  })

const unauthorized = (message: string) => ({ status: 401, body: JSON.stringify({ message, _tag: "Unauthorized" }) })

describe("webhook security", () => {
  it.effect("Telegram: a missing or wrong secret is 401 and appends nothing", () =>
    Effect.gen(function*() {
      const body = fixture("telegram/01_text_private.json")
      expect(yield* post("/webhooks/telegram", body)).toEqual(unauthorized("telegram webhook refused: secret token missing"))
      expect(yield* post("/webhooks/telegram", body, { "x-telegram-bot-api-secret-token": `${telegramSecret}x` })).toEqual(
        unauthorized("telegram webhook refused: secret token mismatch")
      )
      expect(yield* eventLog).toEqual([])
    }).pipe(Effect.provide(layer([]))))

  it.effect("WhatsApp: a wrong signature, and one over re-serialised JSON of a non-ASCII body, are 401", () =>
    Effect.gen(function*() {
      const body = fixture("whatsapp/01_text_meta_docs.json").replace("Does it come in another color?", "Ça coûte combien, Zoë? ✨")
      const bytes = new TextEncoder().encode(body)
      const wrong = whatsAppSignature("not-the-secret", bytes)
      const reserialised = new TextEncoder().encode(JSON.stringify(JSON.parse(body)).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`))
      const overReserialised = whatsAppSignature(whatsAppAppSecret, reserialised)
      const refused = unauthorized("whatsapp webhook refused: signature or verify token mismatch")
      expect(yield* post("/webhooks/whatsapp", bytes, { "x-hub-signature-256": wrong })).toEqual(refused)
      expect(yield* post("/webhooks/whatsapp", bytes, { "x-hub-signature-256": overReserialised })).toEqual(refused)
      expect(yield* post("/webhooks/whatsapp", bytes)).toEqual(unauthorized("whatsapp webhook refused: signature or verify token missing"))
      expect(yield* eventLog).toEqual([])
      expect(yield* whatsApp(body)).toEqual({ status: 200, body: "" })
      expect((yield* eventLog).length).toBe(2)
    }).pipe(Effect.provide(layer([]))))

  it.effect("a sender not on the allow-list is told once, politely, and nothing is stored", () =>
    Effect.gen(function*() {
      expect(yield* telegram(telegramText(999, "hello"))).toEqual({ status: 200, body: "" })
      expect(yield* telegram(telegramText(999, "hello again"))).toEqual({ status: 200, body: "" })
      yield* settled
      expect(yield* eventLog).toEqual([])
      expect(yield* telegramCalls).toEqual([{ method: "sendMessage", body: { chat_id: "999", text: strangerReply } }])
    }).pipe(Effect.provide(layer([]))))

  it.effect("an oversized body is 413 before anything else", () =>
    Effect.gen(function*() {
      const huge = telegramText(100000001, "x".repeat(64 * 1024))
      expect(yield* telegram(huge)).toEqual({ status: 413, body: JSON.stringify({ limitBytes: 65536, _tag: "PayloadTooLarge" }) })
      expect(yield* eventLog).toEqual([])
    }).pipe(Effect.provide(layer([]))))

  it.effect("an oversized body sent without Content-Length (chunked) is 413 too", () =>
    Effect.gen(function*() {
      const harness = yield* Harness
      const chunk = new TextEncoder().encode("x".repeat(16 * 1024))
      const reply = yield* Effect.promise(async () => {
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            for (let i = 0; i < 5; i++) controller.enqueue(chunk)
            controller.close()
          }
        })
        const response = await fetch(`${harness.baseUrl}/webhooks/telegram`, {
          method: "POST",
          body: stream,
          headers: { "x-telegram-bot-api-secret-token": telegramSecret },
          duplex: "half"
        } as RequestInit)
        return { status: response.status, body: await response.text() }
      })
      expect(reply).toEqual({ status: 413, body: JSON.stringify({ limitBytes: 65536, _tag: "PayloadTooLarge" }) })
      expect(yield* eventLog).toEqual([])
    }).pipe(Effect.provide(layer([]))))

  it.effect("a body that breaks off mid-way stores nothing and the server goes on answering", () =>
    Effect.gen(function*() {
      const harness = yield* Harness
      const whole = telegramText(100000001, "never finished")
      yield* Effect.promise(() =>
        new Promise<void>((resolve, reject) => {
          const { port } = new URL(harness.baseUrl)
          const socket = connect(Number(port), "127.0.0.1", () => {
            socket.write(
              `POST /webhooks/telegram HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
                `X-Telegram-Bot-Api-Secret-Token: ${telegramSecret}\r\nContent-Length: ${whole.length}\r\n\r\n` +
                whole.slice(0, 20),
              () => setTimeout(() => socket.destroy(), 50)
            )
          })
          socket.on("close", () => resolve())
          socket.on("error", reject)
        })
      )
      expect(yield* telegram(telegramText(100000001, "after"))).toEqual({ status: 200, body: "" })
      expect(yield* capturedTexts).toEqual(["after"])
    }).pipe(Effect.provide(layer([]))))

  it.effect("text a store could not keep exactly, or a timestamp past the year 9999, is 400 and appends nothing", () =>
    Effect.gen(function*() {
      const lone = yield* telegram(telegramText(100000001, "Ana \ud83d likes tea"))
      const far = yield* telegram(telegramText(100000001, "x").replace("\"date\":1767225600", "\"date\":10000000000000"))
      expect([lone, far]).toEqual([
        {
          status: 400,
          body: JSON.stringify({ message: "text of telegram message 100000001:1 contains a lone surrogate U+D83D, which is not text", _tag: "BadRequest" })
        },
        {
          status: 400,
          body: JSON.stringify({
            message: "not a Telegram Update: message.date: a whole number of seconds between 0 and 253402300799",
            _tag: "BadRequest"
          })
        }
      ])
      expect(yield* eventLog).toEqual([])
      const ignored = JSON.stringify({ update_id: 2, my_chat_member: { chat: { id: 1, type: "group", title: "x\ud83d" }, date: 1767225600 } })
      expect(yield* telegram(ignored)).toEqual({ status: 200, body: "" })
    }).pipe(Effect.provide(layer([]))))

  it.effect("one message of a WhatsApp body that cannot be stored is refused; the others are recorded, once", () =>
    Effect.gen(function*() {
      const body = JSON.stringify({
        object: "whatsapp_business_account",
        entry: [{ id: "1", changes: [{ field: "messages", value: {
          messages: [["wamid.1", "Ana moved to Lyon"], ["wamid.2", "a\u0000b"], ["wamid.3", "Tom got the job"]].map(([id, text]) => ({
            from: "15550001111", id, timestamp: "1767225600", type: "text", text: { body: text }
          }))
        } }] }]
      })
      const refused = {
        status: 400,
        body: JSON.stringify({ message: "text of whatsapp message wamid.2 contains U+0000 (NUL), which is not text", _tag: "BadRequest" })
      }
      expect(yield* whatsApp(body)).toEqual(refused)
      expect(yield* whatsApp(body)).toEqual(refused)
      expect(yield* capturedTexts).toEqual(["Ana moved to Lyon", "Tom got the job"])
    }).pipe(Effect.provide(layer([]))))

  it.effect("malformed JSON and a body of the wrong shape are 400 with the decode message", () =>
    Effect.gen(function*() {
      const malformed = yield* telegram("{\"update_id\": 1, \"message\": ")
      expect(malformed.status).toBe(400)
      expect(JSON.parse(malformed.body)).toEqual({
        _tag: "BadRequest",
        message: "body is not JSON: SyntaxError: Unexpected end of JSON input"
      })
      const wrongShape = yield* whatsApp("{\"object\": 1}")
      expect(wrongShape.status).toBe(400)
      expect(JSON.parse(wrongShape.body)).toEqual({
        _tag: "BadRequest",
        message: "not a WhatsApp webhook body: object: Expected string, actual 1; entry: is missing"
      })
      const notUtf8 = new Uint8Array([0xff, 0xfe, 0x7b])
      expect(yield* post("/webhooks/whatsapp", notUtf8, { "x-hub-signature-256": whatsAppSignature(whatsAppAppSecret, notUtf8) })).toEqual({ status: 400, body: JSON.stringify({ message: "body is not UTF-8 text", _tag: "BadRequest" }) })
      expect(yield* eventLog).toEqual([])
    }).pipe(Effect.provide(layer([]))))
})

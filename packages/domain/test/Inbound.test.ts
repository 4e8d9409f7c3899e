import { describe, expect, it } from "@effect/vitest"
import { propertyRuns } from "@verbatim/testkit/Runs"
import { DateTime, Either } from "effect"
import fc from "fast-check"
import { decodeTelegram, decodeWhatsApp, WebhookDecodeError } from "../src/Inbound/Decode.js"
import { type Inbound, NewMessage, unstorable } from "../src/Inbound/Inbound.js"
import { normaliseTelegram } from "../src/Inbound/normaliseTelegram.js"
import { normaliseWhatsApp } from "../src/Inbound/normaliseWhatsApp.js"

const now = DateTime.unsafeMake(0)
/** The error's fields with its message, which `toEqual` alone skips for Error instances. */
const errorOf = (result: Either.Either<unknown, WebhookDecodeError>) =>
  Either.match(result, { onLeft: (error) => ({ ...error, message: error.message }), onRight: () => "decoded" as const })
const refused = (provider: WebhookDecodeError["provider"], message: string) => ({ _tag: "WebhookDecodeError", provider, message })

describe("decode errors name the field and what was expected", () => {
  it("Telegram", () => {
    const update = (message: unknown) => JSON.stringify({ update_id: 1, message })
    expect([
      errorOf(decodeTelegram("{not json")),
      errorOf(decodeTelegram("[]")),
      errorOf(decodeTelegram("{}")),
      errorOf(decodeTelegram(update({ message_id: "9", chat: { id: 1, type: "private" }, date: 1 }))),
      errorOf(decodeTelegram(update({ message_id: 9, chat: { id: 1, type: "private" }, date: 1, forward_origin: { type: "user" } })))
    ]).toEqual([
      refused("telegram", "body is not JSON: SyntaxError: Expected property name or '}' in JSON at position 1"),
      refused("telegram", "not a Telegram Update: Expected a Telegram Update object, actual []"),
      refused("telegram", "not a Telegram Update: update_id: is missing"),
      refused("telegram", "not a Telegram Update: message.message_id: Expected number, actual \"9\""),
      refused("telegram", "not a Telegram Update: message.forward_origin.sender_user: is missing (required by forward_origin type \"user\")")
    ])
  })

  it("WhatsApp, with every problem listed", () => {
    const body = (message: unknown) =>
      JSON.stringify({ object: "whatsapp_business_account", entry: [{ id: "1", changes: [{ field: "messages", value: { messages: [message] } }] }] })
    expect([
      errorOf(decodeWhatsApp(JSON.stringify({ update_id: 3 }))),
      errorOf(decodeWhatsApp(body({ from: "1", id: "w", timestamp: "soon", type: "text", text: { body: "x" } }))),
      errorOf(decodeWhatsApp(body({ from: "1", id: "w", timestamp: "1", type: "image" })))
    ]).toEqual([
      refused("whatsapp", "not a WhatsApp webhook body: object: is missing; entry: is missing"),
      refused("whatsapp", "not a WhatsApp webhook body: entry[0].changes[0].value.messages[0].timestamp: unix seconds as plain decimal digits, actual \"soon\""),
      refused("whatsapp", "not a WhatsApp webhook body: entry[0].changes[0].value.messages[0].image: is missing (required by message type \"image\")")
    ])
  })

  it("accepts message types and change fields it does not handle, then ignores them", () => {
    const body = {
      object: "whatsapp_business_account",
      entry: [{
        id: "1",
        changes: [
          { field: "messages", value: { messages: [{ from: "1", id: "w", timestamp: "1", type: "order", order: { catalog_id: "c" } }] } },
          { field: "account_update", value: { event: "VERIFIED_ACCOUNT" } }
        ]
      }]
    }
    expect(Either.map(decodeWhatsApp(JSON.stringify(body)), normaliseWhatsApp)).toEqual(Either.right([
      { _tag: "Ignored", provider: "whatsapp", kind: "order", reason: "message type not handled: order" },
      { _tag: "Ignored", provider: "whatsapp", kind: "field:account_update", reason: "change field not handled: account_update" }
    ]))
  })
})

describe("properties", () => {
  it("any JSON body decodes or fails with a typed error, never throws", () => {
    fc.assert(
      fc.property(fc.json(), (json) => {
        const messages = [errorOf(decodeTelegram(json)), errorOf(decodeWhatsApp(json))]
          .map((outcome) => (outcome === "decoded" ? outcome : outcome.message === "" ? "empty message" : "typed error"))
        expect(messages.every((outcome) => outcome !== "empty message")).toBe(true)
      }),
      { numRuns: propertyRuns(300) }
    )
  })

  it("Telegram text is captured exactly as sent, under a chat-scoped id", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.integer(), fc.nat(), fc.nat(), (text, chatId, messageId, date) => {
        const body = JSON.stringify({
          update_id: 1,
          message: { message_id: messageId, from: { id: 42, first_name: "Zoë" }, chat: { id: chatId, type: "group" }, date, text }
        })
        const items = Either.map(decodeTelegram(body), (update) => normaliseTelegram(update, now))
        expect(items).toEqual(Either.right([
          NewMessage.make({
            provider: "telegram",
            providerMessageId: `${chatId}:${messageId}`,
            senderId: "42",
            chatId: String(chatId),
            senderName: "Zoë",
            text,
            kind: "text",
            forwardedFrom: null,
            replyTo: null,
            attachments: [], links: [], mediaGroup: null,
            sentAt: DateTime.unsafeMake(date * 1000)
          })
        ]))
      }),
      { numRuns: propertyRuns(300) }
    )
  })

  it("a batched WhatsApp body yields every message of every entry and change, in order", () => {
    const texts = fc.array(fc.string({ unit: "grapheme", minLength: 1 }), { maxLength: 3 })
    fc.assert(
      fc.property(fc.array(fc.array(texts, { maxLength: 3 }), { maxLength: 3 }), (entries) => {
        let n = 0
        const entry = entries.map((changes, e) => ({
          id: `e${e}`,
          changes: changes.map((bodies) => ({
            field: "messages",
            value: { messages: bodies.map((body) => ({ from: "15550001111", id: `wamid.${n++}`, timestamp: "60", type: "text", text: { body } })) }
          }))
        }))
        const expected = entries.flatMap((changes) =>
          changes.flatMap((bodies): ReadonlyArray<Inbound> =>
            bodies.length === 0 ? [{ _tag: "Ignored", provider: "whatsapp", kind: "empty", reason: "change without messages or statuses" }] : bodies.map((text) => ({
              _tag: "NewMessage",
              provider: "whatsapp",
              providerMessageId: "",
              senderId: "15550001111",
              chatId: "15550001111",
              senderName: null,
              text,
              kind: "text",
              forwardedFrom: null,
              replyTo: null,
              attachments: [], links: [], mediaGroup: null,
              sentAt: DateTime.unsafeMake(60_000)
            }))
          )
        ).map((item, i, all) => {
          const index = all.slice(0, i).filter((earlier) => earlier._tag === "NewMessage").length
          return item._tag === "NewMessage" ? { ...item, providerMessageId: `wamid.${index}` } : item
        })
        const body = JSON.stringify({ object: "whatsapp_business_account", entry })
        expect(Either.map(decodeWhatsApp(body), normaliseWhatsApp)).toEqual(Either.right(expected))
      }),
      { numRuns: propertyRuns(200) }
    )
  })
})

describe("decoding bodies nested beyond any real delivery", () => {
  const deep = (depth: number) => "[".repeat(depth) + "]".repeat(depth)
  const messageOf = (result: Either.Either<unknown, WebhookDecodeError>) => {
    const error = errorOf(result)
    return error === "decoded" ? error : `${error.provider}: ${error.message}`
  }

  it("refuses them with a clear message instead of exhausting the stack", () => {
    expect(messageOf(decodeTelegram(deep(20_000)))).toBe("telegram: body nests deeper than 64 levels")
    expect(messageOf(decodeWhatsApp(`{"entry":${deep(64)}}`))).toBe("whatsapp: body nests deeper than 64 levels")
  })

  it("decodes as before up to the limit (the value quoted cut to 100 characters)", () => {
    expect(messageOf(decodeTelegram(deep(64)))).toBe(messageOf(decodeTelegram("[]")).replace("actual []", `actual ${deep(64).slice(0, 100)}…`))
  })
})

describe("bodies whose text or timestamps a store could not keep exactly", () => {
  const messageOf = (result: Either.Either<unknown, WebhookDecodeError>) => {
    const error = errorOf(result)
    return error === "decoded" ? error : `${error.provider}: ${error.message}`
  }
  const telegram = (message: Record<string, unknown>) =>
    JSON.stringify({ update_id: 1, message: { message_id: 9, chat: { id: 1, type: "private" }, date: 1_767_225_600, ...message } })
  const whatsApp = (message: Record<string, unknown>) =>
    JSON.stringify({
      object: "whatsapp_business_account",
      entry: [{ id: "1", changes: [{ field: "messages", value: { messages: [{ from: "1", id: "w", timestamp: "1767225600", type: "text", ...message }] } }] }]
    })

  it("an item holding a lone surrogate or U+0000 in what is stored is unstorable, naming the field; an ignored update is not", () => {
    const items = (result: Either.Either<ReadonlyArray<Inbound>, WebhookDecodeError>) => Either.getOrThrow(result)
    const telegramItems = (message: Record<string, unknown>) =>
      items(Either.map(decodeTelegram(telegram({ from: { id: 1, first_name: "A" }, ...message })), (u) => normaliseTelegram(u, now)))
    expect([
      ...telegramItems({ text: "Ana \ud83d likes tea" }),
      ...telegramItems({ caption: "\udc00 trailing", photo: [{ file_id: "f" }] }),
      ...items(Either.map(decodeWhatsApp(whatsApp({ text: { body: "a\u0000b" } })), normaliseWhatsApp)),
      ...items(Either.map(decodeTelegram(JSON.stringify({ update_id: 2, my_chat_member: { chat: { id: 1, title: "x\ud83d" } } })), (u) => normaliseTelegram(u, now)))
    ].map(unstorable)).toEqual([
      "text of telegram message 1:9 contains a lone surrogate U+D83D, which is not text",
      "text of telegram message 1:9 contains a lone surrogate U+DC00, which is not text",
      "text of whatsapp message w contains U+0000 (NUL), which is not text",
      null
    ])
  })

  it("keeps surrogate pairs, emoji and every other character as sent", () => {
    const text = "Ana 🎷 likes tea\r\n\u200d👨‍👩‍👧 e\u0301 \ufeff\u2028\u0001"
    const update = decodeTelegram(telegram({ text, from: { id: 1, first_name: "A" } }))
    const [item] = Either.isRight(update) ? normaliseTelegram(update.right, now) : []
    expect(item?._tag === "NewMessage" ? item.text : item).toBe(text)
  })

  it("refuses timestamps that are not whole seconds up to the year 9999", () => {
    const range = "a whole number of seconds between 0 and 253402300799"
    expect([
      messageOf(decodeTelegram(telegram({ date: 1e13, text: "x" }))),
      messageOf(decodeTelegram(telegram({ edit_date: -1, text: "x" }))),
      messageOf(decodeTelegram(telegram({ date: 1.5, text: "x" }))),
      messageOf(decodeWhatsApp(whatsApp({ timestamp: "Infinity", text: { body: "x" } }))),
      messageOf(decodeWhatsApp(whatsApp({ timestamp: "10000000000000", text: { body: "x" } }))),
      messageOf(decodeTelegram(telegram({ date: 253_402_300_799, text: "x" })))
    ]).toEqual([
      `telegram: not a Telegram Update: message.date: ${range}`,
      `telegram: not a Telegram Update: message.edit_date: ${range}`,
      "telegram: not a Telegram Update: message.date: Expected an integer, actual 1.5",
      "whatsapp: not a WhatsApp webhook body: entry[0].changes[0].value.messages[0].timestamp: unix seconds as plain decimal digits, actual \"Infinity\"",
      `whatsapp: not a WhatsApp webhook body: entry[0].changes[0].value.messages[0].timestamp: ${range}`,
      "decoded"
    ])
  })
})

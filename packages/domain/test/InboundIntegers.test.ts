/** Ids and timestamps become keys and instants, so a number that is not exactly one integer is refused. */
import { describe, expect, it } from "@effect/vitest"
import { propertyRuns } from "@verbatim/testkit/Runs"
import { DateTime, Either } from "effect"
import fc from "fast-check"
import { decodeTelegram, decodeWhatsApp, type WebhookDecodeError } from "../src/Inbound/Decode.js"
import { normaliseTelegram } from "../src/Inbound/normaliseTelegram.js"

const messageOf = (result: Either.Either<unknown, WebhookDecodeError>): string =>
  Either.match(result, { onLeft: (error) => `${error.provider}: ${error.message}`, onRight: () => "decoded" })

/** Bad ids as JSON text: `JSON.stringify` would write -0 as 0 and 9007199254740993 rounded. */
const badIds = ["1e300", "9007199254740993", "9007199254740992", "-9007199254740992", "1.5", "-0"]
const notAnId = "a whole number between -9007199254740991 and 9007199254740991, not -0"

/** A body with `"ID"` standing where the id under test goes; the other ids are fine. */
const user = (id: number | "ID" = 5) => ({ id, is_bot: false, first_name: "Eve" })
const chat = (id: number | "ID" = -5) => ({ id, type: "group", title: "Team" })
const inMessage = (extra: Record<string, unknown>) => ({
  message_id: 9,
  from: user(),
  chat: chat(),
  date: 1_767_225_600,
  text: "hi",
  ...extra
})
const telegramBodies: ReadonlyArray<readonly [string, unknown]> = [
  ["update_id", { update_id: "ID", message: inMessage({}) }],
  ["message.message_id", { update_id: 1, message: inMessage({ message_id: "ID" }) }],
  ["message.from.id", { update_id: 1, message: inMessage({ from: user("ID") }) }],
  ["message.chat.id", { update_id: 1, message: inMessage({ chat: chat("ID") }) }],
  ["message.reply_to_message.message_id", { update_id: 1, message: inMessage({ reply_to_message: { message_id: "ID" } }) }],
  ["message.forward_origin.sender_user.id", {
    update_id: 1,
    message: inMessage({ forward_origin: { type: "user", sender_user: user("ID"), date: 1 } })
  }],
  ["message.forward_origin.chat.id", {
    update_id: 1,
    message: inMessage({ forward_origin: { type: "channel", chat: chat("ID"), message_id: 3, date: 1 } })
  }],
  ["message.forward_from.id", { update_id: 1, message: inMessage({ forward_from: user("ID") }) }],
  ["message.forward_from_chat.id", { update_id: 1, message: inMessage({ forward_from_chat: chat("ID") }) }],
  ["edited_message.chat.id", { update_id: 1, edited_message: inMessage({ chat: chat("ID"), edit_date: 1_767_225_700 }) }],
  ["callback_query.from.id", { update_id: 1, callback_query: { id: "q", from: user("ID"), chat_instance: "c", data: "d" } }],
  ["callback_query.message.message_id", {
    update_id: 1,
    callback_query: { id: "q", from: user(), chat_instance: "c", data: "d", message: { message_id: "ID", chat: chat() } }
  }],
  ["callback_query.message.chat.id", {
    update_id: 1,
    callback_query: { id: "q", from: user(), chat_instance: "c", data: "d", message: { message_id: 9, chat: chat("ID") } }
  }]
]

const withId = (body: unknown, id: string): string => JSON.stringify(body).replace("\"ID\"", id)

describe("Telegram ids are safe integers", () => {
  it("every id the service keys on refuses a number that is not exactly one integer, naming the field", () => {
    const outcomes = telegramBodies.flatMap(([, body]) => badIds.map((id) => messageOf(decodeTelegram(withId(body, id)))))
    const expected = telegramBodies.flatMap(([path]) => badIds.map(() => `telegram: not a Telegram Update: ${path}: ${notAnId}`))
    expect(outcomes).toEqual(expected)
  })

  it("the same bodies decode with the largest and smallest safe integers", () => {
    const ids = [String(Number.MAX_SAFE_INTEGER), String(-Number.MAX_SAFE_INTEGER), "0"]
    const outcomes = telegramBodies.flatMap(([, body]) => ids.map((id) => messageOf(decodeTelegram(withId(body, id)))))
    expect(outcomes).toEqual(telegramBodies.flatMap(() => ids.map(() => "decoded")))
  })

  it("two message ids that read as the same double no longer collapse into one key: both are refused", () => {
    const body = (messageId: string) => withId({ update_id: 1, message: inMessage({ message_id: "ID" }) }, messageId)
    expect([body("9007199254740993"), body("9007199254740992")].map((text) => messageOf(decodeTelegram(text)))).toEqual([
      `telegram: not a Telegram Update: message.message_id: ${notAnId}`,
      `telegram: not a Telegram Update: message.message_id: ${notAnId}`
    ])
  })

  it("property: a safe integer chat and message id key the message exactly; any other finite number is refused", () => {
    const keyOf = (chatId: number, messageId: number) =>
      Either.map(
        decodeTelegram(JSON.stringify({ update_id: 1, message: inMessage({ chat: chat(chatId), message_id: messageId }) })),
        (update) => normaliseTelegram(update, DateTime.unsafeMake(0)).map((item) => item._tag === "NewMessage" ? item.providerMessageId : item._tag)
      )
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.maxSafeNat(), (chatId, messageId) => {
        expect(keyOf(chatId, messageId)).toEqual(Either.right([`${chatId}:${messageId}`]))
      }),
      { numRuns: propertyRuns(300) }
    )
    // -0 is left to the examples above: JSON.stringify writes it as 0.
    const unsafe = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isSafeInteger(n))
    fc.assert(
      fc.property(unsafe, (chatId) => {
        expect(Either.mapLeft(keyOf(chatId, 1), (error) => error.message)).toEqual(
          Either.left(`not a Telegram Update: message.chat.id: ${notAnId}`)
        )
      }),
      { numRuns: propertyRuns(300) }
    )
  })
})

describe("WhatsApp timestamps are plain decimal digits", () => {
  const body = (timestamp: string) =>
    JSON.stringify({
      object: "whatsapp_business_account",
      entry: [{ id: "1", changes: [{ field: "messages", value: { messages: [{ from: "1", id: "w", timestamp, type: "text", text: { body: "x" } }] } }] }]
    })
  const field = "whatsapp: not a WhatsApp webhook body: entry[0].changes[0].value.messages[0].timestamp"

  it("refuses what Number() would read but a provider never sends, naming the field and the value", () => {
    const bad = ["1e9", "0x10", " 1767225600 ", "+1", "1.0", "", "-1", "1_767_225_600", "١٧٦٧٢٢٥٦٠٠"]
    expect(bad.map((timestamp) => messageOf(decodeWhatsApp(body(timestamp))))).toEqual([
      `${field}: unix seconds as plain decimal digits, actual "1e9"`,
      `${field}: unix seconds as plain decimal digits, actual "0x10"`,
      `${field}: unix seconds as plain decimal digits, actual " 1767225600 "`,
      `${field}: unix seconds as plain decimal digits, actual "+1"`,
      `${field}: unix seconds as plain decimal digits, actual "1.0"`,
      `${field}: unix seconds as plain decimal digits, actual ""`,
      `${field}: unix seconds as plain decimal digits, actual "-1"`,
      `${field}: unix seconds as plain decimal digits, actual "1_767_225_600"`,
      `${field}: unix seconds as plain decimal digits, actual "١٧٦٧٢٢٥٦٠٠"`
    ])
  })

  it("accepts digits, leading zeros included, up to the year 9999", () => {
    expect(["1767225600", "0", "01767225600", "253402300799", "253402300800"].map((t) => messageOf(decodeWhatsApp(body(t))))).toEqual([
      "decoded",
      "decoded",
      "decoded",
      "decoded",
      `${field}: a whole number of seconds between 0 and 253402300799`
    ])
  })
})

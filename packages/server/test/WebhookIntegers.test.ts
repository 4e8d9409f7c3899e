/** Ids and timestamps that are not exactly one integer, through the real HTTP server: 400, nothing appended. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { capturedTexts, eventLog, layer, telegram, whatsApp } from "./harness.js"

/** A private text from Alice with `"ID"` as the message id; JSON.stringify would round the literal. */
const aliceText = (messageId: string, text: string) =>
  JSON.stringify({
    update_id: 1,
    message: {
      message_id: "ID",
      from: { id: 100000001, is_bot: false, first_name: "Alice" },
      chat: { id: 100000001, type: "private" },
      date: 1767225600,
      text
    }
  }).replace("\"ID\"", messageId)

const badRequest = (message: string) => ({ status: 400, body: JSON.stringify({ message, _tag: "BadRequest" }) })

describe("webhook integers", () => {
  it.effect("Telegram: two message ids that read as one double are both refused, not one kept and one dropped", () =>
    Effect.gen(function*() {
      const refusal = badRequest(
        "not a Telegram Update: message.message_id: a whole number between -9007199254740991 and 9007199254740991, not -0"
      )
      expect(yield* telegram(aliceText("9007199254740993", "Ana moved to Lyon"))).toEqual(refusal)
      expect(yield* telegram(aliceText("9007199254740992", "Tom got the job"))).toEqual(refusal)
      expect(yield* eventLog).toEqual([])
      expect(yield* telegram(aliceText("9007199254740991", "Ana likes tea"))).toEqual({ status: 200, body: "" })
      expect(yield* capturedTexts).toEqual(["Ana likes tea"])
    }).pipe(Effect.provide(layer([]))))

  it.effect("WhatsApp: a timestamp that is not plain decimal digits is refused, naming the field", () =>
    Effect.gen(function*() {
      const body = JSON.stringify({
        object: "whatsapp_business_account",
        entry: [{ id: "1", changes: [{ field: "messages", value: {
          messages: [{ from: "15550001111", id: "wamid.1", timestamp: "1e9", type: "text", text: { body: "Ana moved to Lyon" } }]
        } }] }]
      })
      expect(yield* whatsApp(body)).toEqual(badRequest(
        "not a WhatsApp webhook body: entry[0].changes[0].value.messages[0].timestamp: unix seconds as plain decimal digits, actual \"1e9\""
      ))
      expect(yield* eventLog).toEqual([])
    }).pipe(Effect.provide(layer([]))))
})

/** The log lines an operator reads: one per batch of accepted webhooks, plan job, reply and refusal, with fields and never message text. */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan } from "@verbatim/domain/Plan"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect, HashMap, Layer, Logger } from "effect"
import { closeIdle, drain, fixture, layer, settled, telegram } from "./harness.js"

const operatorLines = new Set(["webhook", "plan job", "reply", "refused"])

const message = (id: number, from: number) => {
  const update = JSON.parse(fixture("telegram/01_text_private.json"))
  return JSON.stringify({
    ...update,
    update_id: update.update_id + id,
    message: { ...update.message, message_id: id, text: `secret text ${id}`, from: { ...update.message.from, id: from } }
  })
}

describe("operator logs", () => {
  it.effect("a webhook, a refusal, a plan job and a reply each log one structured line", () => {
    const lines: Array<{ readonly level: string; readonly message: string; readonly fields: Record<string, unknown> }> = []
    const recording = Logger.replace(
      Logger.defaultLogger,
      Logger.make(({ annotations, logLevel, message }) => {
        const text = Array.isArray(message) ? message.map(String).join(" ") : String(message)
        if (operatorLines.has(text)) lines.push({ level: logLevel.label, message: text, fields: Object.fromEntries(HashMap.toEntries(annotations)) })
      })
    )
    return Effect.gen(function*() {
      yield* telegram(message(9001, 100000001))
      yield* telegram(message(9002, 424242))
      yield* settled
      yield* closeIdle
      yield* drain
      const sessionId = "telegram:100000001:100000001:1"
      const replyId = lines.find((l) => l.message === "reply")?.fields["replyId"]
      expect(lines).toEqual([
        { level: "INFO", message: "webhook", fields: { provider: "telegram", outcome: "accepted", requests: 1, ms: 0 } },
        {
          level: "WARN",
          message: "refused",
          fields: { refused: "NewMessage", provider: "telegram", sender: "telegram:424242", reason: "the sender is not on the allow-list" }
        },
        { level: "INFO", message: "webhook", fields: { provider: "telegram", outcome: "accepted", requests: 1, ms: 0 } },
        { level: "INFO", message: "plan job", fields: { sessionId, outcome: "planned", model: "scripted", inputTokens: 0, outputTokens: 0, ms: 0 } },
        { level: "INFO", message: "reply", fields: { replyId, provider: "telegram", outcome: "sent", attempt: 1 } }
      ])
      expect(JSON.stringify(lines).includes("secret text")).toBe(false)
    }).pipe(
      // The logger is in place before the server starts, so its request fibers log through it too.
      Effect.provide(layer([planStep({ ...emptyPlan, people: [{ contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [] }] }] })]).pipe(
        Layer.provide(recording)
      ))
    )
  })
})

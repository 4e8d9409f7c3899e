/** Redelivery, a model outage and its recovery, through the real HTTP server. */
import { describe, expect, it } from "@effect/vitest"
import { SessionId } from "@verbatim/domain/Ids"
import { emptyPlan } from "@verbatim/domain/Plan"
import { LanguageModelError } from "@verbatim/planner/LanguageModelError"
import { planStep, ScriptedLanguageModel } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect } from "effect"
import { PlanJob } from "../src/Planning/PlanJob.js"
import { accountingOf, client } from "./apiClient.js"
import { closeIdle, drain, eventLog, fixture, layer, noteBody, telegram, telegramCalls } from "./harness.js"

const sessionId = SessionId.make("telegram:100000001:100000001:1")
const stream = `session-${sessionId}`

const openQuestions = client((c) => c.api.questions({ urlParams: { status: "open" } }))

describe("server jobs through HTTP", () => {
  it.effect("the same update posted 20 times at once is captured once", () =>
    Effect.gen(function*() {
      const body = fixture("telegram/01_text_private.json")
      const replies = yield* Effect.all(Array.from({ length: 20 }, () => telegram(body)), { concurrency: "unbounded" })
      expect(replies).toEqual(Array.from({ length: 20 }, () => ({ status: 200, body: "" })))
      expect(yield* eventLog).toEqual([`${stream}#1 SessionOpened`, `${stream}#2 MessageReceived`])
    }).pipe(Effect.provide(layer([]))))

  it.effect("a model outage parks the messages in one failed question and tells the user; a retry files them", () =>
    Effect.gen(function*() {
      const second = JSON.stringify({
        ...JSON.parse(fixture("telegram/01_text_private.json")),
        message: { ...JSON.parse(fixture("telegram/01_text_private.json")).message, message_id: 6558, text: "and her sister Bea" }
      })
      expect(yield* telegram(fixture("telegram/01_text_private.json"))).toEqual({ status: 200, body: "" })
      expect(yield* telegram(second)).toEqual({ status: 200, body: "" })
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 0 })
      expect((yield* eventLog).slice(4)).toEqual([`${stream}#5 PlanFailed`, `${stream}#6 QuestionParked`, `${stream}#7 ReplyQueued`])
      expect(yield* openQuestions).toEqual({
        items: [{
          id: "q_1",
          sessionId,
          user: "telegram:100000001",
          reason: "failed",
          status: "open",
          sources: [
            { messageId: "telegram:100000001:6557", seq: 1, text: "hello there" },
            { messageId: "telegram:100000001:6558", seq: 2, text: "and her sister Bea" }
          ],
          candidates: []
        }],
        nextCursor: null
      })
      expect(yield* drain).toEqual({ sent: 1, failed: 0, held: 0 })
      expect(yield* telegramCalls).toEqual([{
        method: "sendMessage",
        body: {
          chat_id: "100000001",
          text: "I could not sort these messages yet; they are kept safe and will be filed when planning works again."
        }
      }])

      yield* Effect.flatMap(ScriptedLanguageModel, (model) =>
        model.push(planStep({ ...emptyPlan, people: [{ contactId: null, name: "Bea", notes: [{ sourceItemSeqs: [1, 2], directives: [] }] }] })))
      const job = yield* PlanJob
      expect(yield* job.run(sessionId)).toBe("planned")
      expect(yield* noteBody("note_1")).toBe("hello there\n\nand her sister Bea")
      expect(yield* openQuestions).toEqual({ items: [], nextCursor: null })
      expect(yield* drain).toEqual({ sent: 1, failed: 0, held: 0 })
      expect((yield* telegramCalls).slice(1)).toEqual([
        { method: "sendMessage", body: { chat_id: "100000001", text: "Added 1 note: Bea." } }
      ])
      expect(yield* accountingOf(sessionId)).toEqual({
        sessionId,
        user: "telegram:100000001",
        status: "planned",
        messages: [
          { messageId: "telegram:100000001:6557", seq: 1, dispositions: [{ _tag: "InNote", noteId: "note_1" }] },
          { messageId: "telegram:100000001:6558", seq: 2, dispositions: [{ _tag: "InNote", noteId: "note_1" }] }
        ],
        reminders: []
      })
    }).pipe(Effect.provide(layer([new LanguageModelError({ reason: "overloaded", message: "529 overloaded", status: 529 })]))))
})

/**
 * A key the provider refuses, through the real server and the real SDK against the fake Messages
 * API: planning is held (nothing parked, nothing said), readyz is degraded with the reason, the
 * refusal is counted; once the provider answers, the held sessions plan without new input.
 */
import { describe, expect, it } from "@effect/vitest"
import { FakeAnthropic, FakeReply } from "@verbatim/testkit/FakeAnthropic"
import { Duration, Effect, TestClock } from "effect"
import { PlanTrigger } from "../src/Planning/PlanTrigger.js"
import { closeIdle, drain, eventLog, fixture, Harness, layerOver, revokedKeyModel, telegram, telegramCalls } from "./harness.js"

const first = "telegram:100000001:100000001:1"
const second = "telegram:100000001:100000001:2"

const model = revokedKeyModel

const message = (id: number, text: string) => {
  const update = JSON.parse(fixture("telegram/01_text_private.json"))
  return JSON.stringify({ ...update, update_id: update.update_id + id, message: { ...update.message, message_id: id, text } })
}

const plan = (name: string) => ({ people: [{ contactId: null, name, notes: [{ sourceItemSeqs: [1], directives: [] }] }], unattached: [], unclear: [], botMessages: [] })

const get = (path: string) => Effect.flatMap(Harness, (h) => h.request("GET", path))
const calls = Effect.flatMap(FakeAnthropic, (fake) => Effect.map(fake.requests, (r) => r.length))

const reason = "planning held: the model provider refused the API key (ANTHROPIC_API_KEY) (HTTP 401): " +
  "401 {\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"fake authentication_error\"}}"

describe("planning held on an operator's error", () => {
  it.effect("a refused key parks nothing and tells no one; readyz degrades; the held sessions plan once the key works", () =>
    Effect.gen(function*() {
      const fake = yield* FakeAnthropic
      yield* fake.script(FakeReply.unauthorized(), FakeReply.unauthorized())
      expect(yield* telegram(message(7001, "Ana moved to Porto."))).toEqual({ status: 200, body: "" })
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 0 })
      // A session closed while held waits without a model call of its own; the idle time passed
      // is past the probe's first backoff (5 s), so the first session probes once, refused again.
      expect(yield* telegram(message(7002, "Bea starts at Acme."))).toEqual({ status: 200, body: "" })
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 0 })
      expect(yield* calls).toBe(2)
      expect(yield* eventLog).toEqual([
        `session-${first}#1 SessionOpened`,
        `session-${first}#2 MessageReceived`,
        `session-${first}#3 SessionClosed`,
        `session-${second}#1 SessionOpened`,
        `session-${second}#2 MessageReceived`,
        `session-${second}#3 SessionClosed`
      ])
      expect(yield* drain).toEqual({ sent: 0, failed: 0, held: 0 })
      expect(yield* get("/readyz")).toEqual({ status: 200, body: JSON.stringify({ status: "degraded", reason }) })
      const metrics = (yield* get("/metrics")).body.split("\n")
      expect(metrics.filter((l) => /^verbatim_(model_operator_errors_total|planning_held)\b/.test(l))).toEqual([
        "verbatim_model_operator_errors_total{fault=\"credentials\"} 2",
        "verbatim_planning_held 1"
      ])

      // The key works again: the probe, on its backoff (now 10 s), plans the first; the second follows.
      yield* fake.script(FakeReply.toolUse(plan("Ana")), FakeReply.toolUse(plan("Bea")))
      const trigger = yield* PlanTrigger
      expect(yield* trigger.catchUp).toBe(0)
      yield* TestClock.adjust(Duration.seconds(9))
      expect(yield* trigger.catchUp).toBe(0)
      expect(yield* calls).toBe(2)
      yield* TestClock.adjust(Duration.seconds(1))
      expect(yield* trigger.catchUp).toBe(2)
      expect(yield* calls).toBe(4)
      expect(yield* get("/readyz")).toEqual({ status: 200, body: JSON.stringify({ status: "ready" }) })
      const planned = (id: string) =>
        ["PersonAdded", "PlanProduced", "NoteRecorded", "PlanApplied", "ReplyQueued"].map((tag, i) => `session-${id}#${i + 4} ${tag}`)
      expect((yield* eventLog).slice(6)).toEqual([...planned(first), ...planned(second)])
      expect(yield* drain).toEqual({ sent: 2, failed: 0, held: 0 })
      expect(yield* telegramCalls).toEqual([
        { method: "sendMessage", body: { chat_id: "100000001", text: "Added 1 note: Ana." } },
        { method: "sendMessage", body: { chat_id: "100000001", text: "Added 1 note: Bea." } }
      ])
    }).pipe(Effect.provide(layerOver(model))))
})

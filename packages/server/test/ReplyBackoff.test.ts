/**
 * Replies through an hour's Telegram outage, on the test clock with the outbox drained every 2 s
 * as the server drains it: each failed send waits 5 s, 10 s, 20 s … at most 10 minutes, so the
 * log gains a dozen failures, not 1,800; the outage shows on `/readyz` and `/metrics` while it
 * lasts; the reply stays queued and goes out once when Telegram answers again.
 */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan } from "@verbatim/domain/Plan"
import { FakeTelegram } from "@verbatim/testkit/FakeTelegram"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Duration, Effect, TestClock } from "effect"
import { aliceUpdate, closeIdle, drain, eventLog, Harness, layer, telegram, telegramCalls } from "./harness.js"

const plan = { ...emptyPlan, people: [{ contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [] }] }] }

const readiness = Effect.flatMap(Harness, (h) => Effect.map(h.request("GET", "/readyz"), (r) => JSON.parse(r.body) as unknown))

const outageGauge = Effect.flatMap(Harness, (h) =>
  Effect.map(h.request("GET", "/metrics"), (r) => /^verbatim_reply_outage_seconds\{provider="telegram"\} (\d+)$/m.exec(r.body)?.[1]))

describe("a reply through a provider outage", () => {
  it.effect("is tried a dozen times in an hour, not every pass; the outage is visible meanwhile; it is sent once after", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTelegram
      expect(yield* telegram(aliceUpdate(1, { text: "Ana loves jazz" }))).toEqual({ status: 200, body: "" })
      // Every send fails for the hour the outbox keeps trying (12 tries: after 0, 6, 16, 36, 76, 156, 316, 636, 1236, 1836, 2436 and 3036 s).
      yield* fake.failNext(12, "server")
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      const startedAt = yield* TestClock.currentTimeMillis
      let during: unknown = null
      for (let second = 0; second < 3600; second += 2) {
        yield* drain
        if (second === 1800) during = { readiness: yield* readiness, outage: yield* outageGauge }
        yield* TestClock.adjust(Duration.seconds(2))
      }
      const failures = (yield* eventLog).filter((line) => line.endsWith(" ReplyFailed"))
      expect(failures).toEqual(Array.from({ length: 12 }, (_, i) => `reply-reply_1#${i + 1} ReplyFailed`))
      expect(during).toEqual({
        readiness: {
          status: "degraded",
          reason: `replies to telegram failing since ${new Date(startedAt).toISOString()} (unavailable: Internal Server Error); they stay queued`
        },
        outage: "1800"
      })
      // Telegram answers again: the next try sends it, once, and the outage is over.
      for (let second = 0; second < 700; second += 2) {
        yield* drain
        yield* TestClock.adjust(Duration.seconds(2))
      }
      const sends = (yield* telegramCalls).filter((c) => c.method === "sendMessage").map((c) => (c.body as { text: string }).text)
      expect(sends).toEqual(Array.from({ length: 13 }, () => "Added 1 note: Ana."))
      expect((yield* eventLog).filter((line) => line.endsWith(" ReplySent"))).toEqual(["reply-reply_1#13 ReplySent"])
      expect([yield* readiness, yield* outageGauge]).toEqual([{ status: "ready" }, "0"])
    }).pipe(Effect.provide(layer([planStep(plan)]))), 60_000)
})

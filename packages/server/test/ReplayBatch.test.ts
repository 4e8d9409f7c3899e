/**
 * `replay --batch`: the candidate's calls through the Message Batches API (a local fake driven
 * by the real SDK), scored exactly as the Messages API path scores the same answers; entries
 * that expire are submitted again, then fail their session alone; a run stopped after its batch
 * was created polls that batch when started again.
 */
import { describe, expect, it } from "@effect/vitest"
import type { SessionId } from "@verbatim/domain/Ids"
import { canonicalHash } from "@verbatim/planner/internal/canonical"
import { FakeAnthropic, FakeReply } from "@verbatim/testkit/FakeAnthropic"
import { FakeAnthropicBatches } from "@verbatim/testkit/FakeAnthropicBatches"
import { Effect, Fiber, Schedule } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { replay, type SessionReplay } from "../src/Replay.js"
import { summarise } from "../src/Replay/Report.js"
import { tempDir } from "./CliHarness.js"
import { record, sessions } from "./ReplayFixture.js"
import { answers, batchLayer, directLayer, sessionOf, succeeded } from "./replayBatchHarness.js"

const all = [sessions.one, sessions.two, sessions.three]
const options = { promptVersion: "v2", repeat: 1 }

const recorded = Effect.gen(function*() {
  const dir = yield* tempDir("verbatim-batch-")
  yield* record(dir)
  return { dir, stateFile: join(dir, "replay-batches.json") }
})

/** The same sessions through the Messages API, answered alike; returns the results and the bodies sent. */
const direct = (dir: string, ids: ReadonlyArray<SessionId>) =>
  Effect.gen(function*() {
    const fake = yield* FakeAnthropic
    yield* fake.script(...ids.map((id) => {
      const name = id === sessions.one ? "one" : id === sessions.two ? "two" : "three"
      return FakeReply.toolUse(answers[name].plan, answers[name].usage)
    }))
    const results = yield* Effect.provide(replay(ids, options), directLayer(dir, fake.baseUrl))
    return { results, bodies: (yield* fake.requests).map((r) => r.body) }
  }).pipe(Effect.provide(FakeAnthropic.layer))

/** A result without what depends on how its calls were made. */
const scored = (r: SessionReplay) => {
  if (r.status === "failed" || r.status === "skipped") return r
  const { latency: _latency, rate: _rate, ...rest } = r
  return rest
}

const customId = (body: unknown, round = 0) => `${canonicalHash(body).slice(0, 56)}-${round}`
const batchPath = (n: number) => `/v1/messages/batches/msgbatch_fake_${n}`

describe("replay --batch", () => {
  it.scopedLive("one batch for every session's call, polled until it ends, scored as the Messages API path scores the same answers", () =>
    Effect.gen(function*() {
      const { dir, stateFile } = yield* recorded
      const fake = yield* FakeAnthropicBatches
      yield* fake.script({ polls: 2, seconds: 90, answer: (r) => succeeded(sessionOf(r)) })
      const batched = yield* Effect.provide(replay(all, options), batchLayer(dir, fake.baseUrl, stateFile))
      const expected = yield* direct(dir, all)
      expect(batched.map(scored)).toEqual(expected.results.map(scored))
      expect(batched.map((r) => "rate" in r ? { rate: r.rate, latency: r.latency } : r.status)).toEqual([
        { rate: "batch", latency: { live: 0, shadow: 90_000 } },
        { rate: "batch", latency: { live: 0, shadow: 90_000 } },
        // Session three has no live plan: its live time is unknown.
        { rate: "batch", latency: { live: null, shadow: 90_000 } }
      ])
      expect(yield* fake.batches).toEqual([{ id: "msgbatch_fake_1", customIds: expected.bodies.map((b) => customId(b)) }])
      expect(yield* fake.calls).toEqual([
        { method: "POST", path: "/v1/messages/batches" },
        { method: "GET", path: batchPath(1) },
        { method: "GET", path: batchPath(1) },
        { method: "GET", path: batchPath(1) },
        { method: "GET", path: batchPath(1) },
        { method: "GET", path: `${batchPath(1)}/results` }
      ])
      const summary = summarise("v2", batched)
      expect({ tokens: summary.tokens, cost: summary.cost, latency: summary.latency }).toEqual({
        tokens: { live: { input: 1800, output: 180 }, shadow: { input: 2300, output: 240 } },
        cost: { shadow: [1100 + 120 * 5, 900 + 90 * 5, 300 + 30 * 5].reduce((n, c) => n + (0.5 * c) / 1_000_000, 0), rate: "batch" },
        latency: { live: 0, shadow: 90_000 }
      })
      expect(existsSync(stateFile)).toBe(false)
    }).pipe(Effect.provide(FakeAnthropicBatches.layer)))

  it.scopedLive("an expired entry goes into the next batch; one that keeps expiring fails its session alone", () =>
    Effect.gen(function*() {
      const { dir, stateFile } = yield* recorded
      const fake = yield* FakeAnthropicBatches
      const expired = { type: "expired" } as const
      yield* fake.script(
        { polls: 0, seconds: 60, answer: (r) => sessionOf(r) === "three" ? succeeded("three") : expired },
        { polls: 0, seconds: 30, answer: (r) => sessionOf(r) === "one" ? succeeded("one") : expired }
      )
      const results = yield* Effect.provide(replay(all, options), batchLayer(dir, fake.baseUrl, stateFile))
      const expected = yield* direct(dir, [sessions.one, sessions.three])
      const [one, two, three] = results
      expect([one!, three!].map(scored)).toEqual(expected.results.map(scored))
      expect(two).toEqual({
        sessionId: sessions.two,
        status: "failed",
        error: "expired in 2 batch(es), the last msgbatch_fake_2; not submitted again"
      })
      expect([one, three].map((r) => r !== undefined && "latency" in r ? r.latency : null)).toEqual([
        { live: 0, shadow: 90_000 },
        { live: null, shadow: 60_000 }
      ])
      const batches = yield* fake.batches
      expect(batches.map((b) => ({ id: b.id, requests: b.customIds.length }))).toEqual([
        { id: "msgbatch_fake_1", requests: 3 },
        { id: "msgbatch_fake_2", requests: 2 }
      ])
      expect(batches[1]!.customIds).toEqual(batches[0]!.customIds.filter((id) => id !== customId(expected.bodies[1])))
      expect((yield* fake.calls).filter((c) => c.method === "POST")).toEqual([
        { method: "POST", path: "/v1/messages/batches" },
        { method: "POST", path: "/v1/messages/batches" }
      ])
    }).pipe(Effect.provide(FakeAnthropicBatches.layer)))

  it.scopedLive("a run stopped after its batch was created polls the same batch when run again, and creates none", () =>
    Effect.gen(function*() {
      const { dir, stateFile } = yield* recorded
      const fake = yield* FakeAnthropicBatches
      yield* fake.script({ polls: "hold", seconds: 600, answer: (r) => succeeded(sessionOf(r)) })
      const first = yield* Effect.fork(Effect.provide(replay(all, options), batchLayer(dir, fake.baseUrl, stateFile)))
      yield* fake.calls.pipe(Effect.repeat({ schedule: Schedule.spaced("5 millis"), until: (calls) => calls.some((c) => c.method === "GET") }))
      yield* Fiber.interrupt(first)
      const held = yield* fake.batches
      expect(JSON.parse(readFileSync(stateFile, "utf8"))).toEqual({ batches: held })
      yield* fake.release
      const second = yield* Effect.provide(replay(all, options), batchLayer(dir, fake.baseUrl, stateFile))
      const expected = yield* direct(dir, all)
      expect(second.map(scored)).toEqual(expected.results.map(scored))
      expect(yield* fake.batches).toEqual([{ id: "msgbatch_fake_1", customIds: expected.bodies.map((b) => customId(b)) }])
      expect((yield* fake.calls).filter((c) => c.method === "POST" || !c.path.startsWith(batchPath(1)))).toEqual([
        { method: "POST", path: "/v1/messages/batches" }
      ])
      expect(existsSync(stateFile)).toBe(false)
    }).pipe(Effect.provide(FakeAnthropicBatches.layer)))
})

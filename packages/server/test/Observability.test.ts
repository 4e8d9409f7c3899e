/** Metrics and logs an operator reads, through the real HTTP server. */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan } from "@verbatim/domain/Plan"
import { FakeAnthropic, FakeReply } from "@verbatim/testkit/FakeAnthropic"
import { FakeTelegram } from "@verbatim/testkit/FakeTelegram"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Duration, Effect, TestClock } from "effect"
import { PlanTrigger } from "../src/Planning/PlanTrigger.js"
import { backoff } from "../src/Backoff.js"
import { apiToken, closeIdle, drain, fixture, Harness, layer, layerOver, revokedKeyModel, telegram } from "./harness.js"
import { checkExposition, delta, samples } from "./exposition.js"

const scrape = Effect.flatMap(Harness, (h) => Effect.map(h.request("GET", "/metrics"), (r) => r.body))
const passes = (n: number) =>
  Effect.forEach(Array.from({ length: n }), () =>
    Effect.zipRight(TestClock.adjust(Duration.minutes(6)), Effect.flatMap(PlanTrigger, (t) => t.catchUp)), { discard: true })

const refusedKey = revokedKeyModel

const message = (id: number) => {
  const update = JSON.parse(fixture("telegram/01_text_private.json"))
  return JSON.stringify({ ...update, update_id: update.update_id + id, message: { ...update.message, message_id: id, text: `note ${id}` } })
}

describe("metrics", () => {
  it.effect("request latency is labelled by route template, method and status; the exposition parses whole", () =>
    Effect.gen(function*() {
      const h = yield* Harness
      const before = samples(yield* scrape)
      yield* telegram(fixture("telegram/01_text_private.json"))
      // Raw requests: the route and status each is counted under are the point, one of them no route of the contract.
      yield* h.request("GET", "/api/notes/note_00000000-0000-0000-0000-000000000001", { headers: { authorization: `Bearer ${apiToken}` } })
      yield* h.request("GET", "/no/such/path?x=1")
      yield* h.request("GET", "/api/notes/a/b/c")
      const body = yield* scrape
      expect(delta(before, samples(body), "verbatim_http_request_duration_seconds_count")).toEqual({
        "verbatim_http_request_duration_seconds_count{route=\"/api/notes/:id\",method=\"GET\",status=\"404\"}": 1,
        "verbatim_http_request_duration_seconds_count{route=\"/metrics\",method=\"GET\",status=\"200\"}": 1,
        "verbatim_http_request_duration_seconds_count{route=\"/webhooks/telegram\",method=\"POST\",status=\"200\"}": 1,
        "verbatim_http_request_duration_seconds_count{route=\"unmatched\",method=\"GET\",status=\"404\"}": 2
      })
      const families = checkExposition(body)
      expect(families.filter(([name]) => /^(process|nodejs)_/.test(name))).toEqual([
        ["process_resident_memory_bytes", "gauge"],
        ["process_start_time_seconds", "gauge"],
        ["process_uptime_seconds", "gauge"],
        ["nodejs_heap_size_used_bytes", "gauge"],
        ["nodejs_heap_size_total_bytes", "gauge"],
        ["nodejs_eventloop_lag_p50_seconds", "gauge"],
        ["nodejs_eventloop_lag_p99_seconds", "gauge"],
        ["nodejs_eventloop_lag_max_seconds", "gauge"],
        ["nodejs_gc_pause_seconds_total", "counter"],
        ["nodejs_gc_runs_total", "counter"]
      ])
      const after = samples(body)
      expect(after.get("process_resident_memory_bytes")! > 0).toBe(true)
      expect(after.get("nodejs_heap_size_used_bytes")! > 0).toBe(true)
      expect(Math.abs(after.get("process_start_time_seconds")! - (Date.now() / 1000 - process.uptime())) < 2).toBe(true)
      expect([...after.keys()].filter((k) => k.startsWith("nodejs_gc_runs_total"))).toEqual([
        "nodejs_gc_runs_total{kind=\"incremental\"}",
        "nodejs_gc_runs_total{kind=\"major\"}",
        "nodejs_gc_runs_total{kind=\"minor\"}",
        "nodejs_gc_runs_total{kind=\"weakcb\"}"
      ])
    }).pipe(Effect.provide(layer([]))), 30_000)

  it.effect("without a model key, many scheduler passes over one closed session count one plan job", () =>
    Effect.gen(function*() {
      const before = samples(yield* scrape)
      yield* telegram(message(8001))
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 0 })
      yield* passes(5)
      expect(delta(before, samples(yield* scrape), "verbatim_plans_total")).toEqual({ "verbatim_plans_total{outcome=\"no-model\"}": 1 })
    }).pipe(Effect.provide(layer([], { noModel: true }))))

  it.effect("a 401 from the model holds planning: each held session counts once, however many probes follow", () =>
    Effect.gen(function*() {
      const fake = yield* FakeAnthropic
      yield* fake.script(...Array.from({ length: 10 }, () => FakeReply.unauthorized()))
      const before = samples(yield* scrape)
      yield* telegram(message(8101))
      yield* closeIdle
      yield* telegram(message(8102))
      yield* closeIdle
      yield* passes(5)
      const after = samples(yield* scrape)
      expect(delta(before, after, "verbatim_plans_total")).toEqual({ "verbatim_plans_total{outcome=\"held\"}": 2 })
      expect(delta(before, after, "verbatim_model_call_duration_seconds_count")).toEqual({
        "verbatim_model_call_duration_seconds_count{outcome=\"auth\"}": 7
      })
    }).pipe(Effect.provide(layerOver(refusedKey))))

  it.effect("the outbox counts replies sent, retried and given up", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTelegram
      const before = samples(yield* scrape)
      for (const id of [8201, 8202, 8203]) {
        yield* telegram(message(id))
        yield* closeIdle
      }
      yield* fake.failNext(1, "server")
      yield* fake.failNext(1, "bad-request")
      yield* drain
      // The reply that failed for a while is tried again after its backoff.
      yield* TestClock.adjust(backoff(1))
      yield* drain
      expect(delta(before, samples(yield* scrape), "verbatim_replies_total")).toEqual({
        "verbatim_replies_total{outcome=\"failed\"}": 1,
        "verbatim_replies_total{outcome=\"retried\"}": 1,
        "verbatim_replies_total{outcome=\"sent\"}": 2
      })
    }).pipe(Effect.provide(layer(["Ana", "Bea", "Cy"].map((name) =>
      planStep({ ...emptyPlan, people: [{ contactId: null, name, notes: [{ sourceItemSeqs: [1], directives: [] }] }] }))))))

  it.effect("VERBATIM_METRICS_PUBLIC=false puts /metrics behind the API token", () =>
    Effect.gen(function*() {
      const h = yield* Harness
      expect(yield* h.request("GET", "/metrics")).toEqual({
        status: 401,
        body: JSON.stringify({ message: "missing or wrong bearer token", _tag: "Unauthorized" })
      })
      expect((yield* h.request("GET", "/metrics", { headers: { authorization: "Bearer wrong" } })).status).toBe(401)
      const allowed = yield* h.request("GET", "/metrics", { headers: { authorization: `Bearer ${apiToken}` } })
      expect(allowed.status).toBe(200)
      expect(allowed.body.split("\n")).toContain("# TYPE verbatim_sessions_open gauge")
    }).pipe(Effect.provide(layer([], { settings: { metricsPublic: false } }))))
})

/**
 * `replay --aa` over `--batch`, as a subprocess against a local fake Message Batches API: the
 * live prompt planned against itself twice, the live plans and each repeat compared with the
 * first, the floor written to the JSON report with the tokens, cost and time in model calls;
 * `--noise-floor-from` then judges a candidate against that floor.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Plan } from "@verbatim/domain/Plan"
import { FakeAnthropicBatches } from "@verbatim/testkit/FakeAnthropicBatches"
import { Effect } from "effect"
import { existsSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { runCli, tempDir } from "./CliHarness.js"
import { record, sessions, v1 } from "./ReplayFixture.js"
import { answers, model, sessionOf } from "./replayBatchHarness.js"

const livePlan = (step: (typeof v1)[keyof typeof v1]) => (step as { readonly raw: unknown }).raw as Plan
const usage = { input_tokens: 1000, output_tokens: 100 }

/** Sessions one and two planned 6 message placements; one moved in the A/A repeats. */
const floor = 1 - 5 / 6

/** The gate over sessions one and two: the live plans agree on all five labelled messages. */
const gateOf = (shadow: { readonly correct: number; readonly wrong: number }, agreement: number, reasons: ReadonlyArray<string>) => ({
  verdict: reasons.length === 0 ? "PASS" : "FAIL",
  live: { correct: 5, wrong: 0, asked: 0, unlabelled: 1 },
  shadow: { ...shadow, asked: 0, unlabelled: 1 },
  agreement: { live: 1, shadow: agreement },
  noiseFloor: floor,
  invariantViolations: 0,
  personCreations: 0,
  duplicatePeople: 0,
  reasons
})

describe("replay --aa", () => {
  it.scopedLive("measures the floor from the live plans and two repeats in two batches, and a candidate is judged against it", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-aa-")
      const { env: recorded, promptHash } = yield* record(dir)
      const fake = yield* FakeAnthropicBatches
      const same = (name: "one" | "two") => ({ type: "succeeded", input: livePlan(v1[name]), usage }) as const
      yield* fake.script(
        { polls: 1, seconds: 60, answer: (r) => same(sessionOf(r) === "one" ? "one" : "two") },
        { polls: 0, seconds: 45, answer: (r) => sessionOf(r) === "one" ? { type: "succeeded", input: answers.one.plan, usage } : same("two") }
      )
      const { VERBATIM_CASSETTE_DIR: _, ...store } = recorded
      const env = {
        ...store,
        ANTHROPIC_API_KEY: "sk-ant-test",
        ANTHROPIC_BASE_URL: fake.baseUrl,
        VERBATIM_MODEL: model,
        VERBATIM_BATCH_POLL_INTERVAL: "5 millis"
      }
      const stateFile = join(dir, "aa-batches.json")
      const aa = yield* runCli(
        ["replay", "--aa", "--repeat", "2", "--batch", "--batch-state", stateFile, "--session", sessions.one, "--session", sessions.two, "--json"],
        env
      )
      expect(aa.code).toEqual(0)
      const report = JSON.parse(aa.stdout)
      const tokens = { live: { input: 1800, output: 180 }, shadow: { input: 2000, output: 200 } }
      expect({ run: { ...report.run, planSchema: null }, gate: report.gate, summary: report.summary }).toEqual({
        run: {
          prompt: { version: "v1", hash: promptHash },
          models: [model],
          planSchema: null,
          repeat: 2,
          mode: "aa",
          livePrompts: [`v1@${promptHash}`],
          sessions: [{ sessionId: sessions.one, lastPosition: 15, transcripts: [] }, { sessionId: sessions.two, lastPosition: 25, transcripts: [] }]
        },
        gate: gateOf({ correct: 5, wrong: 0 }, 1, []),
        summary: {
          promptVersion: "v1",
          sessions: 2,
          changed: 0,
          unchanged: 2,
          failed: 0,
          skipped: 0,
          moved: 0,
          regrouped: 0,
          cutsChanged: 0,
          questionsAdded: 0,
          questionsResolved: 0,
          reminders: { added: 0, lost: 0, moved: 0, unchanged: 0, regressions: 0, improvements: 0 },
          tokens,
          cost: { shadow: (0.5 * (2000 * 1 + 200 * 5)) / 1_000_000, rate: "batch" },
          latency: { live: 0, shadow: 60_000 }
        }
      })
      expect(report.sessions.map((s: Record<string, unknown>) => ({ id: s.sessionId, rate: s.rate, latency: s.latency, stability: s.stability }))).toEqual([
        { id: sessions.one, rate: "batch", latency: { live: 0, shadow: 60_000 }, stability: { runs: 3, stable: 3, messages: 4 } },
        { id: sessions.two, rate: "batch", latency: { live: 0, shadow: 60_000 }, stability: { runs: 3, stable: 2, messages: 2 } }
      ])
      expect((yield* fake.batches).map((b) => b.id)).toEqual(["msgbatch_fake_1", "msgbatch_fake_2"])
      expect(existsSync(stateFile)).toBe(false)

      const aaFile = join(dir, "aa.json")
      writeFileSync(aaFile, aa.stdout)
      const candidate = yield* runCli(["replay", "--prompt", "v2", "--session", sessions.one, "--session", sessions.two, "--noise-floor-from", aaFile, "--json"], recorded)
      expect(JSON.parse(candidate.stdout).gate).toEqual(
        gateOf({ correct: 4, wrong: 1 }, 0.8, ["agreement fell from 100.0% to 80.0%, beyond the noise floor of 16.7%"])
      )
      const notAa = join(dir, "candidate.json")
      writeFileSync(notAa, candidate.stdout)
      const refused = yield* runCli(["replay", "--prompt", "v2", "--noise-floor-from", notAa], recorded)
      expect({ ...refused, stderr: refused.stderr.trim() }).toEqual({
        code: 1,
        stdout: "",
        stderr: `verbatim: ${notAa} is not an A/A report; write one with replay --aa --format json`
      })
    }).pipe(Effect.provide(FakeAnthropicBatches.layer)))
})

import { describe, expect, it } from "@effect/vitest"
import type { SessionId } from "@verbatim/domain/Ids"
import type { SessionReplay } from "../src/Replay.js"
import { gate } from "../src/Replay/Gate.js"
import { renderText, summarise } from "../src/Replay/Report.js"

const unchanged = {
  moved: [],
  regrouped: { before: [], after: [] },
  cuts: { removed: [], added: [] },
  questions: { added: [], resolved: [] }
}

const tally = { correct: 0, wrong: 0, asked: 0, unlabelled: 0 }
const scored = {
  lastPosition: 1,
  reused: false,
  rate: "list" as const,
  transcripts: [],
  livePrompts: [],
  evaluation: {
    live: tally,
    shadow: tally,
    messages: [],
    invariants: { violations: [], personCreations: [] },
    corrected: { answered: [], moved: [], edited: [] }
  },
  stability: { runs: 1, stable: 0, messages: 0 },
  reminders: { added: [], lost: [], moved: [], unchanged: 0, regressions: 0, improvements: 0 }
}

describe("replay report", () => {
  it("prices the shadow plans of a model with a known list price, per session and in total", () => {
    const results: ReadonlyArray<SessionReplay> = [
      {
        sessionId: "telegram:1:1:1" as SessionId,
        status: "unchanged",
        diff: unchanged,
        ...scored,
        model: "claude-sonnet-4-5-20250929",
        tokens: { live: { input: 10_000, output: 1_000 }, shadow: { input: 20_000, output: 2_000 } },
        latency: { live: null, shadow: 4_250 }
      },
      {
        sessionId: "telegram:1:1:2" as SessionId,
        status: "unchanged",
        diff: unchanged,
        ...scored,
        model: "a-model-without-a-price",
        tokens: { live: { input: 5, output: 1 }, shadow: { input: 5, output: 1 } },
        latency: { live: null, shadow: 1_000 }
      }
    ]
    expect(renderText(summarise("v2", results), gate(results), results)).toBe([
      "replay under prompt v2: 2 session(s), 0 changed, 2 unchanged, 0 failed, 0 skipped",
      "  notes moved between people: 0",
      "  sessions regrouped: 0",
      "  instructions cut differently: 0",
      "  questions added: 0, resolved: 0",
      "  tokens: 20005 in / 2001 out ($0.0900 at list price) (live plans: 10005 in / 1001 out)",
      "  time in model calls: candidate 5.3 s, live unknown (not recorded)",
      "  agreement with the users' outcome: 100.0% (live plans 100.0%, noise floor 0.0%; invariant violations 0): PASS",
      "",
      "session telegram:1:1:1: unchanged (model claude-sonnet-4-5-20250929; tokens 20000 in / 2000 out, $0.0900 at list price, " +
      "live 10000 in / 1000 out)",
      "session telegram:1:1:2: unchanged (model a-model-without-a-price; tokens 5 in / 1 out, live 5 in / 1 out)"
    ].join("\n"))
  })

  it("prices batched calls at half the list price and counts the longest session's batch wall time", () => {
    const results: ReadonlyArray<SessionReplay> = [
      { sessionId: "telegram:1:1:1" as SessionId, status: "unchanged", diff: unchanged, ...scored, rate: "batch", model: "claude-sonnet-4-5-20250929",
        tokens: { live: { input: 10_000, output: 1_000 }, shadow: { input: 20_000, output: 2_000 } }, latency: { live: null, shadow: 120_000 } },
      { sessionId: "telegram:1:1:2" as SessionId, status: "unchanged", diff: unchanged, ...scored, rate: "batch", model: "claude-sonnet-4-5-20250929",
        tokens: { live: { input: 0, output: 0 }, shadow: { input: 20_000, output: 2_000 } }, latency: { live: null, shadow: 60_000 } }
    ]
    const summary = summarise("v2", results)
    expect({ cost: summary.cost, latency: summary.latency }).toEqual({ cost: { shadow: 0.09, rate: "batch" }, latency: { live: null, shadow: 120_000 } })
    expect(renderText(summary, gate(results), results).split("\n").slice(5, 7)).toEqual([
      "  tokens: 40000 in / 4000 out ($0.0900 at batch price, half the list price) (live plans: 10000 in / 1000 out)",
      "  time in model calls: candidate 120.0 s (batch wall time), live unknown (not recorded)"
    ])
  })

  it("an A/A report says so and states its disagreement floor", () => {
    const results: ReadonlyArray<SessionReplay> = [
      { sessionId: "telegram:1:1:1" as SessionId, status: "unchanged", diff: unchanged, ...scored, model: "m",
        tokens: { live: { input: 0, output: 0 }, shadow: { input: 0, output: 0 } }, latency: { live: null, shadow: 0 },
        stability: { runs: 3, stable: 9, messages: 10 } }
    ]
    expect(renderText(summarise("v1", results), gate(results), results, "aa").split("\n")).toEqual([
      "A/A replay under prompt v1: 1 session(s), 0 changed, 1 unchanged, 0 failed, 0 skipped",
      "  notes moved between people: 0",
      "  sessions regrouped: 0",
      "  instructions cut differently: 0",
      "  questions added: 0, resolved: 0",
      "  tokens: 0 in / 0 out (live plans: 0 in / 0 out)",
      "  time in model calls: candidate 0.0 s, live unknown (not recorded)",
      "  agreement with the users' outcome: 100.0% (live plans 100.0%, noise floor 10.0%; invariant violations 0): PASS",
      "  disagreement floor (the live plans and each repeat against the first): 10.0%",
      "",
      "session telegram:1:1:1: unchanged (model m; tokens 0 in / 0 out, live 0 in / 0 out)"
    ])
  })
})

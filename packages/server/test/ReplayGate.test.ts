import { describe, expect, it } from "@effect/vitest"
import type { SessionId } from "@verbatim/domain/Ids"
import type { Compared, SessionReplay } from "../src/Replay.js"
import { gate } from "../src/Replay/Gate.js"

const tally = (correct: number, wrong: number, asked = 0) => ({ correct, wrong, asked, unlabelled: 0 })

const session = (
  live: ReturnType<typeof tally>,
  shadow: ReturnType<typeof tally>,
  stability: Compared["stability"],
  violations: Compared["evaluation"]["invariants"]["violations"] = []
): SessionReplay => ({
  sessionId: "s" as SessionId,
  status: "changed",
  lastPosition: 9,
  reused: false,
  transcripts: [],
  diff: { moved: [], regrouped: { before: [], after: [] }, cuts: { removed: [], added: [] }, questions: { added: [], resolved: [] } },
  reminders: { added: [], lost: [], moved: [], unchanged: 0, regressions: 0, improvements: 0 },
  model: "m",
  livePrompts: [],
  tokens: { live: { input: 0, output: 0 }, shadow: { input: 0, output: 0 } },
  rate: "list",
  latency: { live: null, shadow: 0 },
  evaluation: { live, shadow, messages: [], invariants: { violations, personCreations: [] }, corrected: { answered: [], moved: [], edited: [] } },
  stability
})

const steady = { runs: 3, stable: 10, messages: 10 }

describe("the gate on a change", () => {
  it("a loss with no noise fails; the same loss within the measured noise floor is inconclusive; no loss passes", () => {
    expect(gate([session(tally(10, 0), tally(9, 1), steady)])).toEqual({
      verdict: "FAIL",
      live: tally(10, 0),
      shadow: tally(9, 1),
      agreement: { live: 1, shadow: 0.9 },
      noiseFloor: 0,
      invariantViolations: 0,
      personCreations: 0,
      duplicatePeople: 0,
      reasons: ["agreement fell from 100.0% to 90.0%, beyond the noise floor of 0.0%"]
    })
    const noisy = gate([session(tally(10, 0), tally(9, 1), { runs: 3, stable: 8, messages: 10 })])
    expect({ verdict: noisy.verdict, noiseFloor: noisy.noiseFloor, reasons: noisy.reasons }).toEqual({
      verdict: "INCONCLUSIVE",
      noiseFloor: 0.19999999999999996,
      reasons: ["agreement fell from 100.0% to 90.0%, within the noise floor of 20.0%"]
    })
    const given = gate([session(tally(10, 0), tally(9, 1), steady)], 0.15)
    expect({ verdict: given.verdict, noiseFloor: given.noiseFloor }).toEqual({ verdict: "INCONCLUSIVE", noiseFloor: 0.15 })
    expect(gate([session(tally(8, 2), tally(9, 0, 1), steady)]).verdict).toEqual("PASS")
  })

  it("a broken invariant fails whatever the agreement", () => {
    const broken = gate([session(tally(10, 0), tally(10, 0), steady, [{ _tag: "CutAbsent", seq: 2, text: "call her" }])])
    expect({ verdict: broken.verdict, reasons: broken.reasons, invariantViolations: broken.invariantViolations }).toEqual({
      verdict: "FAIL",
      reasons: ["1 invariant violation(s)"],
      invariantViolations: 1
    })
  })
})

/** `verbatim replay`, `audit`, `retry`, `rebuild --verify` and `--promote`, as subprocesses over a recorded store. */
import { describe, expect, it } from "@effect/vitest"
import { planInputSchema } from "@verbatim/domain/PlanJsonSchema"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { normalise, runCli, tempDir } from "./CliHarness.js"
import { record, sessions } from "./ReplayFixture.js"

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex")

const recorded = Effect.flatMap(tempDir("verbatim-replay-"), record)

const v2Report = [
  "replay under prompt v2: 2 session(s), 2 changed, 0 unchanged, 0 failed, 0 skipped",
  "  notes moved between people: 1",
  "  sessions regrouped: 2",
  "  instructions cut differently: 2",
  "  questions added: 0, resolved: 1",
  "  tokens: 2000 in / 210 out (live plans: 1800 in / 180 out)",
  "  time in model calls: candidate 0.0 s, live 0.0 s",
  "  agreement with the users' outcome: 80.0% (live plans 100.0%, noise floor 0.0%; invariant violations 0): FAIL",
  "  why: agreement fell from 100.0% to 80.0%, beyond the noise floor of 0.0%",
  "",
  `session ${sessions.one}: changed (model scripted; tokens 1100 in / 120 out, live 1000 in / 100 out)`,
  "  moved: seq 4 from Tom to (unattached)",
  "  regrouped: [1 2] [3] -> [1 2 3]",
  "  no longer cut: seq 3 directive \"remind me on Friday: \"",
  "  newly cut: seq 3 directive \"remind me on Friday:\"",
  `session ${sessions.two}: changed (model scripted; tokens 900 in / 90 out, live 800 in / 80 out)`,
  "  regrouped: - -> [2]",
  "  question resolved (unclear): seq 2",
  ""
]

describe("verbatim replay", () => {
  it.scoped("the same prompt and the recorded model reproduce identical decisions; a planted v2 shows as a reviewed diff", () =>
    Effect.gen(function*() {
      const { env, promptHash } = yield* recorded
      const same = yield* runCli(["replay", "--prompt", "v1", "--session", sessions.one, "--session", sessions.two], env)
      expect({ code: same.code, stdout: same.stdout }).toEqual({
        code: 0,
        stdout: [
          "replay under prompt v1: 2 session(s), 0 changed, 2 unchanged, 0 failed, 0 skipped",
          "  notes moved between people: 0",
          "  sessions regrouped: 0",
          "  instructions cut differently: 0",
          "  questions added: 0, resolved: 0",
          "  tokens: 1800 in / 180 out (live plans: 1800 in / 180 out)",
          "  time in model calls: candidate 0.0 s, live 0.0 s",
          "  agreement with the users' outcome: 100.0% (live plans 100.0%, noise floor 0.0%; invariant violations 0): PASS",
          "",
          `session ${sessions.one}: unchanged (model scripted; tokens 1000 in / 100 out, live 1000 in / 100 out)`,
          `session ${sessions.two}: unchanged (model scripted; tokens 800 in / 80 out, live 800 in / 80 out)`,
          ""
        ].join("\n")
      })
      const changed = yield* runCli(["replay", "--prompt", "v2", "--session", sessions.one, "--session", sessions.two], env)
      expect({ code: changed.code, stdout: changed.stdout }).toEqual({
        code: 0,
        stdout: v2Report.join("\n")
      })
      const json = yield* runCli(["replay", "--prompt", "v2", "--session", sessions.two, "--json"], env)
      const tokens = (input: number, output: number) => ({ input, output })
      const tally = (correct: number, unlabelled: number) => ({ correct, wrong: 0, asked: 0, unlabelled })
      const tom = { _tag: "Person", personId: "person_2", name: "Tom" }
      const ana = { _tag: "Person", personId: "person_1", name: "Ana" }
      const question = { _tag: "Question", reason: "unclear" }
      const gate = {
        verdict: "PASS",
        live: tally(1, 1),
        shadow: tally(1, 1),
        agreement: { live: 1, shadow: 1 },
        noiseFloor: 0,
        invariantViolations: 0,
        personCreations: 0,
        duplicatePeople: 0,
        reasons: []
      }
      expect(JSON.parse(json.stdout)).toEqual({
        run: {
          prompt: { version: "v2", hash: sha256(readFileSync(join(env.VERBATIM_PROMPT_DIR!, "v2.md"))) },
          models: ["scripted"],
          planSchema: { eventVersion: 3, sha256: sha256(JSON.stringify(planInputSchema)) },
          repeat: 1,
          mode: "candidate",
          livePrompts: [`v1@${promptHash}`],
          sessions: [{ sessionId: sessions.two, lastPosition: 25, transcripts: [] }]
        },
        gate,
        summary: {
          promptVersion: "v2",
          sessions: 1,
          changed: 1,
          unchanged: 0,
          failed: 0,
          skipped: 0,
          moved: 0,
          regrouped: 1,
          cutsChanged: 0,
          questionsAdded: 0,
          questionsResolved: 1,
          reminders: { added: 0, lost: 0, moved: 0, unchanged: 0, regressions: 0, improvements: 0 },
          tokens: { live: tokens(800, 80), shadow: tokens(900, 90) },
          cost: { shadow: null, rate: "list" },
          latency: { live: 0, shadow: 0 }
        },
        sessions: [{
          sessionId: sessions.two,
          status: "changed",
          diff: {
            moved: [],
            regrouped: { before: [], after: [[2]] },
            cuts: { removed: [], added: [] },
            questions: { added: [], resolved: [{ seqs: [2], reason: "unclear" }] }
          },
          reminders: { added: [], lost: [], moved: [], unchanged: 0, regressions: 0, improvements: 0 },
          lastPosition: 25,
          transcripts: [],
          model: "scripted",
          reused: false,
          livePrompts: [`v1@${promptHash}`],
          tokens: { live: tokens(800, 80), shadow: tokens(900, 90) },
          rate: "list",
          latency: { live: 0, shadow: 0 },
          evaluation: {
            live: tally(1, 1),
            shadow: tally(1, 1),
            messages: [
              { seq: 1, text: "Tom's new number ends in 0199", label: tom, basis: "plan", candidate: tom, verdict: "correct", live: tom, liveVerdict: "correct" },
              { seq: 2, text: "lunch with Ana and Tom on Tuesday", label: null, basis: "open", candidate: ana, verdict: "unlabelled", live: question, liveVerdict: "unlabelled" }
            ],
            invariants: { violations: [], personCreations: [] },
            corrected: { answered: [], moved: [], edited: [] }
          },
          stability: { runs: 1, stable: 2, messages: 2 }
        }]
      })
    }))
})

describe("verbatim audit, retry, replay --promote, rebuild --verify", () => {
  it.scoped("audit shows each source inline, the cut struck through, the plan and prompt", () =>
    Effect.gen(function*() {
      const { env, promptHash } = yield* recorded
      const audit = yield* runCli(["audit", "note_2"], env)
      expect({ code: audit.code, stdout: normalise(audit.stdout) }).toEqual({
        code: 0,
        stdout: [
          "note note_2 about Ana (person_1)",
          `session ${sessions.one}, user telegram:100000001, merged from 1 plan note(s)`,
          "",
          "~~remind me on Friday: ~~ Ana's birthday is 4 April ⟦seq 3 · telegram:100000001:3 · <time>⟧",
          "",
          "instructions cut:",
          "  seq 3: ~~remind me on Friday: ~~",
          `plan plan_1: prompt v1 (sha256 ${promptHash}), model scripted, tokens 1000 in / 100 out`,
          ""
        ].join("\n")
      })
      const merged = yield* runCli(["audit", "note_1"], env)
      expect(normalise(merged.stdout).split("\n").slice(3, 6).join("\n")).toEqual(
        "Ana starts at the clinic in March. ⟦seq 1 · telegram:100000001:1 · <time>⟧\n\n" +
          "She wants a quiet desk by the window. ⟦seq 2 · telegram:100000001:2 · <time>⟧"
      )
    }))

  it.scoped("retry plans a failed session again; the failed question is withdrawn", () =>
    Effect.gen(function*() {
      const { env } = yield* recorded
      const before = yield* runCli(["accounting", sessions.three], env)
      expect(before.stdout).toEqual(`session ${sessions.three} (failed), user telegram:100000001, 1 message(s)\n` +
        "  seq 1 telegram:100000001:7: question q_2\n")
      const retry = yield* runCli(["retry", sessions.three], env)
      expect(retry).toEqual({ code: 0, stderr: "", stdout: `session ${sessions.three}: planned: its notes and questions are recorded\n` })
      const after = yield* runCli(["accounting", sessions.three], env)
      expect(normalise(after.stdout)).toEqual(`session ${sessions.three} (planned), user telegram:100000001, 1 message(s)\n` +
        "  seq 1 telegram:100000001:7: note note_<id>\n")
    }))

  it.scoped("--promote records the v2 plans: the superseded notes, questions and cuts leave the projections", () =>
    Effect.gen(function*() {
      const { env } = yield* recorded
      const promoted = yield* runCli(["replay", "--prompt", "v2", "--session", sessions.one, "--session", sessions.two, "--promote", "--yes"], env)
      const none = "0 corrections: 0 carried over (0 re-applied, 0 so already), 0 turned into questions, 0 lost"
      expect({ code: promoted.code, stdout: promoted.stdout }).toEqual({
        code: 0,
        stdout: v2Report.join("\n") + `session ${sessions.one}: promoted; ${none}\nsession ${sessions.two}: promoted; ${none}\n` +
          "promoted 2 sessions: 0 corrections, 0 carried over, 0 turned into questions, 0 lost\n"
      })
      const one = yield* runCli(["accounting", sessions.one], env)
      expect(normalise(one.stdout)).toEqual([
        `session ${sessions.one} (planned), user telegram:100000001, 4 message(s)`,
        "  seq 1 telegram:100000001:1: note note_<id>",
        "  seq 2 telegram:100000001:2: note note_<id>",
        "  seq 3 telegram:100000001:3: note note_<id>; cut \"remind me on Friday:\"",
        "  seq 4 telegram:100000001:4: note note_<id>",
        ""
      ].join("\n"))
      const two = yield* runCli(["accounting", sessions.two], env)
      expect(normalise(two.stdout)).toEqual([
        `session ${sessions.two} (planned), user telegram:100000001, 2 message(s)`,
        "  seq 1 telegram:100000001:5: note note_<id>",
        "  seq 2 telegram:100000001:6: note note_<id>",
        ""
      ].join("\n"))
      const again = yield* runCli(["replay", "--prompt", "v2", "--session", sessions.one, "--session", sessions.two], env)
      expect(again.stdout.split("\n")[0]).toEqual("replay under prompt v2: 2 session(s), 0 changed, 2 unchanged, 0 failed, 0 skipped")
      const verify = yield* runCli(["rebuild", "--verify"], env)
      expect({ ...verify, stderr: verify.stderr.replace(/\(\d+\/s\)/, "(<rate>)") }).toEqual({
        code: 0,
        stderr: "rebuild: 42/42 (<rate>)\n",
        stdout: "verified: rebuilding from 42 event(s) reproduces every table\n"
      })
    }))
})

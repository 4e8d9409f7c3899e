/** `verbatim replay` as an evaluation: Markdown and JUnit reports, `--fail-on-regression` and `replay compare`, as subprocesses. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { runCli, tempDir } from "./CliHarness.js"
import { record, sessions } from "./ReplayFixture.js"

const recorded = Effect.flatMap(tempDir("verbatim-replay-eval-"), (dir) => Effect.map(record(dir), (r) => ({ ...r, dir })))
const both = ["--session", sessions.one, "--session", sessions.two]
/** Stderr without the progress lines. */
const errors = (stderr: string) => stderr.split("\n").filter((line) => !line.startsWith("replay: ")).join("\n")
const lost = "agreement fell from 100.0% to 80.0%, beyond the noise floor of 0.0%"

describe("verbatim replay as an evaluation", () => {
  it.scoped("Markdown and JUnit reports of a prompt that files a message away from where its user accepted it", () =>
    Effect.gen(function*() {
      const { env } = yield* recorded
      const v2Hash = createHash("sha256").update(readFileSync(join(env.VERBATIM_PROMPT_DIR!, "v2.md"))).digest("hex")
      const markdown = yield* runCli(["replay", "--prompt", "v2", ...both, "--format", "markdown"], env)
      expect({ code: markdown.code, stdout: markdown.stdout }).toEqual({
        code: 0,
        stdout: [
          `### Replay under prompt \`v2\` (\`${v2Hash.slice(0, 12)}\`, scripted): **FAIL**`,
          "",
          "Agreement with the users' own outcome: **80.0%** (live plans 100.0%, noise floor 0.0%). 2 session(s): 2 changed, " +
          "0 unchanged, 0 failed, 0 skipped. Invariant violations: 0. New people: 0 (0 where the user had them). " +
          "Tokens: 2000 in / 210 out, live plans 1800 in / 180 out. Time in model calls: candidate 0.0 s, live 0.0 s.",
          `- ${lost}`,
          "",
          "| plans | correct | wrong | asked | unlabelled |",
          "|---|---:|---:|---:|---:|",
          "| live | 5 | 0 | 0 | 1 |",
          "| candidate | 4 | 1 | 0 | 1 |",
          "",
          "#### Changed sessions (2)",
          "",
          `**\`${sessions.one}\`**: 3 of 4 agree (live 4 of 4)`,
          "",
          "| seq | message | user | live | candidate | verdict |",
          "|---:|---|---|---|---|---|",
          "| 4 | Tom moved to Lisbon | Tom | Tom | (unattached) | wrong |",
          "",
          `**\`${sessions.two}\`**: 1 of 1 agree (live 1 of 1)`,
          "",
          "| seq | message | user | live | candidate | verdict |",
          "|---:|---|---|---|---|---|",
          "| 2 | lunch with Ana and Tom on Tuesday | — | (question: unclear) | Ana | unlabelled |",
          "",
          "",
          ""
        ].join("\n")
      })
      const junit = yield* runCli(["replay", "--prompt", "v2", ...both, "--format", "junit"], env)
      expect({ code: junit.code, stdout: junit.stdout }).toEqual({
        code: 0,
        stdout: [
          `<?xml version="1.0" encoding="UTF-8"?>`,
          `<testsuites name="verbatim replay" tests="3" failures="2" skipped="0">`,
          `  <testsuite name="replay under prompt v2 (${v2Hash})" tests="3" failures="2" skipped="0">`,
          `    <testcase classname="replay.v2" name="gate">`,
          `      <failure message="${lost}">${lost}</failure>`,
          `    </testcase>`,
          `    <testcase classname="replay.v2" name="${sessions.one}">`,
          `      <failure message="agrees on 3 message(s), live 4">agrees on 3 message(s), live 4`,
          `seq 4: user Tom, live Tom, candidate (unattached) (wrong)</failure>`,
          `    </testcase>`,
          `    <testcase classname="replay.v2" name="${sessions.two}"/>`,
          `  </testsuite>`,
          `</testsuites>`,
          "",
          ""
        ].join("\n")
      })
    }))

  it.scoped("--fail-on-regression exits 1 on the regressing prompt and 0 on the live one; compare reads both JSON reports back", () =>
    Effect.gen(function*() {
      const { dir, env, promptHash } = yield* recorded
      const v2Hash = createHash("sha256").update(readFileSync(join(env.VERBATIM_PROMPT_DIR!, "v2.md"))).digest("hex")
      const failing = yield* runCli(["replay", "--prompt", "v2", ...both, "--format", "json", "--fail-on-regression"], env)
      expect({ code: failing.code, stderr: errors(failing.stderr) }).toEqual({ code: 1, stderr: `verbatim: regression under prompt v2: ${lost}\n` })
      const passing = yield* runCli(["replay", "--prompt", "v1", ...both, "--format", "json", "--fail-on-regression", "--repeat", "2"], env)
      expect({ code: passing.code, stderr: errors(passing.stderr) }).toEqual({ code: 0, stderr: "" })
      // The recorded model answers each repeat alike: every message is stable and the floor is nought.
      const report = JSON.parse(passing.stdout)
      expect({
        repeat: report.run.repeat,
        floor: report.gate.noiseFloor,
        stability: report.sessions.map((s: { stability: unknown }) => s.stability)
      }).toEqual({ repeat: 2, floor: 0, stability: [{ runs: 2, stable: 4, messages: 4 }, { runs: 2, stable: 2, messages: 2 }] })
      writeFileSync(join(dir, "a.json"), passing.stdout)
      writeFileSync(join(dir, "b.json"), failing.stdout)
      const compared = yield* runCli(["replay", "compare", join(dir, "a.json"), join(dir, "b.json")], env)
      expect(compared).toEqual({
        code: 0,
        stderr: "",
        stdout: [
          `A: prompt v1 (${promptHash.slice(0, 12)}), model scripted, 2 session(s), repeat 2: agreement 100.0% (live 100.0%, floor 0.0%), 0 violation(s), PASS`,
          `B: prompt v2 (${v2Hash.slice(0, 12)}), model scripted, 2 session(s), repeat 1: agreement 80.0% (live 100.0%, floor 0.0%), 0 violation(s), FAIL`,
          "inputs: prompts differ",
          "agreement: 100.0% -> 80.0%",
          "sessions scored differently:",
          `  ${sessions.one}: A 4 correct, 0 wrong, 0 asked; B 3 correct, 1 wrong, 0 asked`,
          "",
          ""
        ].join("\n")
      })
      writeFileSync(join(dir, "c.json"), JSON.stringify({ summary: {} }))
      // Under the live prompt and model the live plans' calls are reused from the log: the model's address is dead.
      const offline = { VERBATIM_DATA_DIR: env.VERBATIM_DATA_DIR!, VERBATIM_PROMPT_DIR: env.VERBATIM_PROMPT_DIR!, VERBATIM_PROMPT_VERSION: "v1", ANTHROPIC_API_KEY: "unused", ANTHROPIC_BASE_URL: "http://127.0.0.1:9", VERBATIM_MODEL: "scripted" }
      const reused = yield* runCli(["replay", "--prompt", "v1", ...both], offline)
      expect({ code: reused.code, sessions: reused.stdout.split("\n").slice(9) }).toEqual({
        code: 0,
        sessions: [
          `session ${sessions.one}: unchanged (model scripted; tokens 0 in / 0 out, live 1000 in / 100 out; reused from the log)`,
          `session ${sessions.two}: unchanged (model scripted; tokens 0 in / 0 out, live 800 in / 80 out; reused from the log)`,
          ""
        ]
      })
      const broken = yield* runCli(["replay", "compare", join(dir, "a.json"), join(dir, "c.json")], env)
      expect(broken).toEqual({
        code: 1,
        stdout: "",
        stderr: `verbatim: ${join(dir, "c.json")} is not a JSON replay report; write one with replay --format json\n`
      })
    }))
})

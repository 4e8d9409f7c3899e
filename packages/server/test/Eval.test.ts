/** `verbatim eval`: the shipped evaluation set offline, a changed prompt with no recorded answers, and a prompt that regresses. */
import { describe, expect, it } from "@effect/vitest"
import { load } from "@verbatim/planner/EvalSet"
import { packagedPromptDirectory } from "@verbatim/planner/PromptRegistry"
import { RecordedLanguageModel } from "@verbatim/planner/RecordedLanguageModel"
import { ConfigProvider, Effect, Layer } from "effect"
import { FakeAnthropic, FakeReply } from "@verbatim/testkit/FakeAnthropic"
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { authored } from "../src/Cli/Eval.js"
import { runCase } from "../src/Eval/RunEval.js"
import * as Planner from "../src/Planning/Planner.js"
import { runCli, tempDir } from "./CliHarness.js"

const reminders = "  reminders precision 100.0% (3 of 3 proposed), recall 100.0% (3 of 3 expected); recorded answers precision 100.0% (3 of 3 proposed), recall 100.0% (3 of 3 expected)"

const shipped = "  agreement 94.6% (35 correct, 0 wrong, 2 asked, 1 unlabelled); recorded answers 94.6% (35 correct, 0 wrong, 2 asked, 1 unlabelled)"

/** A prompt folder with the shipped v1 and a `filtering` version that differs by one line. */
const prompts = (dir: string) => {
  const folder = join(dir, "prompts")
  mkdirSync(folder)
  copyFileSync(join(packagedPromptDirectory, "v1.md"), join(folder, "v1.md"))
  writeFileSync(join(folder, "filtering.md"), readFileSync(join(folder, "v1.md"), "utf8") + "\nFile a forward under the person it names.\n")
  return folder
}

describe("verbatim eval", () => {
  it.scoped("offline, the shipped prompt passes on its recorded answers; a changed prompt has none and says it needs a live run", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-eval-")
      const env = { VERBATIM_PROMPT_DIR: prompts(dir), VERBATIM_PROMPT_VERSION: "v1" }
      expect(yield* runCli(["eval"], env)).toEqual({ code: 0, stderr: "", stdout: ["eval under prompt v1: 23 case(s): PASS", shipped, "", ""].join("\n") })
      const changed = yield* runCli(["eval", "--prompt", "filtering"], env)
      const unrecorded = "23 case(s) have no recorded answer for this prompt: run `npm run eval -- --live` with ANTHROPIC_API_KEY set"
      expect({ code: changed.code, head: changed.stdout.split("\n").slice(0, 3), stderr: changed.stderr }).toEqual({
        code: 1,
        head: [
          "eval under prompt filtering: 23 case(s): FAIL",
          "  agreement 100.0% (0 correct, 0 wrong, 0 asked, 0 unlabelled); recorded answers 100.0% (0 correct, 0 wrong, 0 asked, 0 unlabelled)",
          `  ${unrecorded}`
        ],
        stderr: `verbatim: eval failed under prompt filtering: ${unrecorded}\n`
      })
    }))

  it.scoped("a prompt whose answers file the long forward under the person it names fails; the shipped prompt passes", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-eval-")
      const folder = prompts(dir)
      const cassettes = join(dir, "cassettes")
      const { cases } = yield* load()
      // The filtering incident: the forward, mostly the sender's own week, filed under Ana alone.
      const answers = cases.map((c) =>
        c.id === "long-forward"
          ? { ...c, recorded: { ...c.recorded, unattached: [], people: [{ contactId: "person_1", name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [] }] }] } }
          : c
      )
      yield* Effect.forEach(answers, (c) =>
        runCase(c, "filtering").pipe(
          Effect.provide(Planner.layer(RecordedLanguageModel.layerRecording(cassettes).pipe(Layer.provide(authored(c)))).pipe(
            Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["VERBATIM_PROMPT_DIR", folder], ["VERBATIM_PROMPT_VERSION", "v1"]]))))
          ))
        ))
      const env = { VERBATIM_PROMPT_DIR: folder, VERBATIM_PROMPT_VERSION: "v1" }
      const failing = yield* runCli(["eval", "--prompt", "filtering", "--cassettes", cassettes], env)
      expect(failing).toEqual({
        code: 1,
        stdout: [
          "eval under prompt filtering: 23 case(s): FAIL",
          "  agreement 91.9% (34 correct, 1 wrong, 2 asked, 1 unlabelled); recorded answers 94.6% (35 correct, 0 wrong, 2 asked, 1 unlabelled)",
          reminders,
          "  agreement fell from 94.6% to 91.9%",
          "case long-forward:",
          "  seq 1: correct -> wrong",
          "",
          ""
        ].join("\n"),
        stderr: "verbatim: eval failed under prompt filtering: agreement fell from 94.6% to 91.9%\n"
      })
      const passing = yield* runCli(["eval", "--prompt", "v1"], env)
      expect(passing).toEqual({ code: 0, stderr: "", stdout: ["eval under prompt v1: 23 case(s): PASS", shipped, "", ""].join("\n") })
    }))

  it.scoped("--live asks the model (a fake Messages API driven by the real SDK) and records its answers; offline they then replay", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-eval-")
      const folder = prompts(dir)
      const cassettes = join(dir, "cassettes")
      const { cases } = yield* load()
      const fake = yield* FakeAnthropic.make
      yield* fake.script(...cases.map((c) => FakeReply.toolUse(c.recorded, { input_tokens: 1000, output_tokens: 50 })))
      const env = { VERBATIM_PROMPT_DIR: folder, VERBATIM_PROMPT_VERSION: "v1", ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: fake.baseUrl }
      const live = yield* runCli(["eval", "--prompt", "filtering", "--live", "--cassettes", cassettes], env)
      expect(live).toEqual({ code: 0, stderr: "", stdout: ["eval under prompt filtering: 23 case(s): PASS", shipped, reminders, "", ""].join("\n") })
      expect({ requests: (yield* fake.requests).length, cassettes: readdirSync(cassettes).length }).toEqual({ requests: 23, cassettes: 23 })
      const offline = yield* runCli(["eval", "--prompt", "filtering", "--cassettes", cassettes], { VERBATIM_PROMPT_DIR: folder, VERBATIM_PROMPT_VERSION: "v1" })
      expect(offline).toEqual(live)
    }))

  it.scoped("under a reminders prompt, a reminder set for the evening instead of 09:00 Friday, and one not set, fall below the recorded answers", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-eval-")
      const folder = join(dir, "prompts")
      mkdirSync(folder)
      copyFileSync(join(packagedPromptDirectory, "v2.md"), join(folder, "v2.md"))
      writeFileSync(join(folder, "later.md"), readFileSync(join(folder, "v2.md"), "utf8") + "\nWith no hour in the words, remind in the evening.\n")
      const env = { VERBATIM_PROMPT_DIR: folder, VERBATIM_PROMPT_VERSION: "v2" }
      expect(yield* runCli(["eval"], env)).toEqual({ code: 0, stderr: "", stdout: ["eval under prompt v2: 23 case(s): PASS", shipped, reminders, "", ""].join("\n") })
      const cassettes = join(dir, "cassettes")
      const { cases } = yield* load()
      const answers = cases.map((c) =>
        c.id === "reminder-on-friday"
          ? { ...c, recorded: { ...c.recorded, reminders: c.recorded.reminders!.map((r) => ({ ...r, due: "2026-03-27T18:00" })) } }
          : c.id === "two-reminders"
          ? { ...c, recorded: { ...c.recorded, reminders: c.recorded.reminders!.slice(0, 1) } }
          : c
      )
      yield* Effect.forEach(answers, (c) =>
        runCase(c, "later").pipe(
          Effect.provide(Planner.layer(RecordedLanguageModel.layerRecording(cassettes).pipe(Layer.provide(authored(c)))).pipe(
            Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
          ))
        ))
      const friday = "\"Remind me to ask him about the sublet on Friday.\""
      const reasons = ["reminder precision fell from 100.0% to 50.0%", "reminder recall fell from 100.0% to 33.3%"]
      expect(yield* runCli(["eval", "--prompt", "later", "--cassettes", cassettes], env)).toEqual({
        code: 1,
        stdout: [
          "eval under prompt later: 23 case(s): FAIL",
          shipped,
          "  reminders precision 50.0% (1 of 2 proposed), recall 33.3% (1 of 3 expected); recorded answers precision 100.0% (3 of 3 proposed), recall 100.0% (3 of 3 expected)",
          ...reasons.map((r) => `  ${r}`),
          "case reminder-on-friday:",
          `  reminder missed: seq 1 ${friday} due 2026-03-27T09:00`,
          `  reminder not expected: seq 1 ${friday} due 2026-03-27T18:00`,
          "case two-reminders:",
          "  reminder missed: seq 2 \"remind me on Thursday at 10:30 to call the dentist\" due 2026-06-04T10:30",
          "",
          ""
        ].join("\n"),
        stderr: `verbatim: eval failed under prompt later: ${reasons.join("; ")}\n`
      })
    }))
})

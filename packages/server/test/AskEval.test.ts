/** `verbatim eval --asks`: the ask set offline from its recorded answers, and an ask prompt whose answers regress. */
import { describe, expect, it } from "@effect/vitest"
import { evalSetDirectory } from "@verbatim/planner/EvalSet"
import { Effect } from "effect"
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { runCli, tempDir } from "./CliHarness.js"

const shipped = [
  "ask eval under ask prompt v1: 6 question(s): PASS",
  "  precision 100.0% (13 of 13 quotes right), recall 100.0% (13 of 13 found)",
  "  recorded answers: precision 100.0% (13 of 13 quotes right), recall 100.0% (13 of 13 found)",
  "",
  ""
].join("\n")

/** The shipped cassettes in `dir`, the one asking `question` answering `quotes` instead. */
const cassettesWith = (dir: string, question: string, quotes: ReadonlyArray<{ readonly ref: string; readonly text: string }>) => {
  const folder = join(dir, "cassettes")
  mkdirSync(folder)
  const from = join(evalSetDirectory, "cassettes")
  for (const name of readdirSync(from)) copyFileSync(join(from, name), join(folder, name))
  const changed = readdirSync(folder).filter((name) => {
    const cassette = JSON.parse(readFileSync(join(folder, name), "utf8")) as { request: { userContent: string }; outcome: { raw: unknown } }
    if (!cassette.request.userContent.includes(JSON.stringify({ question }))) return false
    writeFileSync(join(folder, name), JSON.stringify({ ...cassette, outcome: { ...cassette.outcome, raw: { quotes } } }))
    return true
  })
  expect(changed.length).toBe(1)
  return folder
}

describe("verbatim eval --asks", () => {
  it.scoped("the shipped ask prompt passes on its recorded answers", () =>
    Effect.gen(function*() {
      expect(yield* runCli(["eval", "--asks"], {})).toEqual({ code: 0, stderr: "", stdout: shipped })
    }))

  it.scoped("answers that quote the wrong message, miss one, or make words up fall below the recorded answers and fail", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-ask-eval-")
      // The puppy: one of its two quotes missed, one from a message about something else, and words no one wrote.
      const cassettes = cassettesWith(dir, "o que sei do cão do Tom?", [
        { ref: "m29", text: "Tom got a puppy" },
        { ref: "m21", text: "Tom wants to hike the Rota Vicentina" },
        { ref: "m29", text: "Tom adopted a dog" }
      ])
      expect(yield* runCli(["eval", "--asks", "--cassettes", cassettes], {})).toEqual({
        code: 1,
        stdout: [
          "ask eval under ask prompt v1: 6 question(s): FAIL",
          "  precision 92.3% (12 of 13 quotes right), recall 92.3% (12 of 13 found)",
          "  recorded answers: precision 100.0% (13 of 13 quotes right), recall 100.0% (13 of 13 found)",
          "  precision fell from 100.0% to 92.3%",
          "  recall fell from 100.0% to 92.3%",
          "question the-puppy: precision 50.0% (1 of 2 quotes right), recall 50.0% (1 of 2 found); 1 quote(s) dropped",
          "",
          ""
        ].join("\n"),
        stderr: "verbatim: ask eval failed under ask prompt v1: precision fell from 100.0% to 92.3%; recall fell from 100.0% to 92.3%\n"
      })
    }))
})

import { mkdtemp, readdir, readFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import type { Plan } from "@verbatim/domain/Plan"
import { CassetteError, RecordedLanguageModel, requestHash } from "../src/RecordedLanguageModel.js"
import { planStep, ScriptedLanguageModel } from "@verbatim/testkit/ScriptedLanguageModel"
import { Cause, Duration, Effect, Exit, Layer, Option } from "effect"
import { LanguageModel, type ModelRequest, planOf } from "../src/LanguageModel.js"
import { LanguageModelError } from "../src/LanguageModelError.js"
import { recordPlanTool } from "../src/PlanningTool.js"
import { errorFields } from "./fixtures.js"

const request = (userContent: string): ModelRequest => ({
  system: "SYSTEM",
  tool: recordPlanTool,
  userContent,
  maxTokens: 1024,
  timeout: Duration.seconds(5)
})
const plan: Plan = { people: [{ contactId: "p-anna", name: "Anna", notes: [] }], unattached: [], unclear: [], botMessages: [] }
const usage = { inputTokens: 10, outputTokens: 2, cacheReadTokens: 1, cacheWriteTokens: 0 }
const tempDir = Effect.promise(() => mkdtemp(join(tmpdir(), "cassettes-")))

describe("RecordedLanguageModel", () => {
  it("hashes the request's canonical JSON: key order and timeout do not matter, content does", () => {
    const a = request("A")
    const reordered: ModelRequest = { timeout: Duration.seconds(99), maxTokens: 1024, userContent: "A", tool: recordPlanTool, system: "SYSTEM" }
    expect(requestHash(reordered)).toBe(requestHash(a))
    expect(requestHash(request("B"))).not.toBe(requestHash(a))
    expect(requestHash(a)).toMatch(/^[0-9a-f]{64}$/)
  })

  it.effect("records answers and errors, then replays them without the model", () =>
    Effect.gen(function*() {
      const directory = yield* tempDir
      const recording = RecordedLanguageModel.layerRecording(directory).pipe(
        Layer.provide(
          ScriptedLanguageModel.layer([
            planStep(plan, { usage }),
            new LanguageModelError({ reason: "rate-limited", message: "slow down", status: 429, retryAfterMs: 7000 })
          ])
        )
      )
      const live = yield* Effect.gen(function*() {
        const model = yield* LanguageModel
        return [yield* planOf(model)(request("A")), yield* Effect.flip(planOf(model)(request("B")))] as const
      }).pipe(Effect.provide(recording))
      expect((yield* Effect.promise(() => readdir(directory))).sort()).toEqual(
        [`${requestHash(request("A"))}.json`, `${requestHash(request("B"))}.json`].sort()
      )
      const file = JSON.parse(yield* Effect.promise(() => readFile(join(directory, `${requestHash(request("A"))}.json`), "utf8")))
      expect(file).toEqual({
        hash: requestHash(request("A")),
        request: { system: "SYSTEM", tool: JSON.parse(JSON.stringify(recordPlanTool)), userContent: "A", maxTokens: 1024 },
        outcome: { _tag: "Plan", raw: plan, stopReason: "tool_use", usage, model: "scripted" }
      })
      const replayed = yield* Effect.gen(function*() {
        const model = yield* LanguageModel
        return [yield* planOf(model)(request("A")), yield* Effect.flip(planOf(model)(request("B")))] as const
      }).pipe(Effect.provide(RecordedLanguageModel.layer(directory)))
      expect(replayed[0]).toEqual(live[0])
      expect(errorFields(replayed[1])).toEqual(
        errorFields(new LanguageModelError({ reason: "rate-limited", message: "slow down", status: 429, retryAfterMs: 7000 }))
      )
    }))

  it.effect("names the hash of a request it has no cassette for, and never guesses", () => {
    const directory = join(tmpdir(), "verbatim-no-such-cassettes")
    const hash = requestHash(request("never recorded"))
    const path = join(directory, `${hash}.json`)
    const expected = new CassetteError({
      reason: "missing",
      hash,
      path,
      message: `no recorded response for request ${hash} (${path})`
    })
    return Effect.gen(function*() {
      const recorded = yield* RecordedLanguageModel
      expect(errorFields(yield* Effect.flip(recorded.call(request("never recorded"))))).toEqual(errorFields(expected))
      // Through the LanguageModel tag it is a defect carrying the same typed error, never a model failure.
      const model = yield* LanguageModel
      const exit = yield* Effect.exit(planOf(model)(request("never recorded")))
      expect(Exit.isFailure(exit) ? Cause.dieOption(exit.cause).pipe(Option.map(errorFields)) : Option.none()).toEqual(
        Option.some(errorFields(expected))
      )
    }).pipe(Effect.provide(RecordedLanguageModel.layer(directory)))
  })
})

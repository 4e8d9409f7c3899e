/**
 * The Message Batches model on its own, against the fake Message Batches API through the real
 * SDK: a call made outside any participant goes at once; an errored entry is the error the same
 * failure on the Messages API is; a state file that is not one stops the layer.
 */
import { recordPlanToolV1 } from "../src/PlanningTool.js"
import { describe, expect, it } from "@effect/vitest"
import type { Plan } from "@verbatim/domain/Plan"
import { FakeAnthropicBatches } from "@verbatim/testkit/FakeAnthropicBatches"
import { tempDir } from "@verbatim/testkit/TempDir"
import { Duration, Effect, Either, Exit, Option, Redacted } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import * as AnthropicBatchLanguageModel from "../src/AnthropicBatchLanguageModel.js"
import { buildRequest } from "../src/BuildRequest.js"
import { LanguageModel, planOf } from "../src/LanguageModel.js"
import { LanguageModelError } from "../src/LanguageModelError.js"
import { packagedPromptDirectory, PromptRegistry } from "../src/PromptRegistry.js"
import { contactsOfAlice, countChars, errorFields, session } from "./fixtures.js"

const plan: Plan = { people: [], unattached: [], unclear: [], botMessages: [] }

const options = (baseUrl: string, stateFile: string): AnthropicBatchLanguageModel.BatchOptions => ({
  anthropic: { apiKey: Redacted.make("sk-ant-test"), model: "claude-haiku-4-5", baseUrl: Option.some(baseUrl), timeout: Duration.seconds(10) },
  stateFile,
  pollInterval: Duration.millis(5),
  resubmits: 0
})

const request = Effect.gen(function*() {
  const prompts = yield* PromptRegistry.make({ directory: packagedPromptDirectory, defaultVersion: "v1" })
  const settings = { maxTokens: 2048, timeout: Duration.seconds(5), promptBudget: 100_000, contentBudget: 100_000, contactReserve: 0, maxContacts: 50, count: countChars, tool: recordPlanToolV1, zone: null }
  return Either.getOrThrow(buildRequest(prompts.current.text, contactsOfAlice, session, settings)).request
})

describe("AnthropicBatchLanguageModel", () => {
  it.scopedLive("a lone call is its own batch; a succeeded entry is its plan, an errored one the Messages API's error", () =>
    Effect.gen(function*() {
      const fake = yield* FakeAnthropicBatches
      const dir = yield* tempDir("verbatim-batch-model-")
      yield* fake.script(
        { polls: 0, seconds: 5, answer: () => ({ type: "succeeded", input: plan, usage: { input_tokens: 10, output_tokens: 2 } }) },
        { polls: 0, seconds: 5, answer: () => ({ type: "errored", errorType: "overloaded_error" }) }
      )
      const model = AnthropicBatchLanguageModel.layer(options(fake.baseUrl, join(dir, "state.json")))
      const { answered, failed } = yield* Effect.provide(
        Effect.gen(function*() {
          const m = yield* LanguageModel
          const r = yield* request
          return { answered: yield* planOf(m)(r), failed: yield* Effect.flip(planOf(m)(r)) }
        }),
        model
      )
      expect(answered).toEqual({
        plan,
        raw: plan,
        stopReason: "tool_use",
        usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
        model: "claude-haiku-4-5",
        durationMs: 5000
      })
      expect(errorFields(failed)).toEqual(errorFields(new LanguageModelError({
        reason: "overloaded",
        message: "overloaded_error: fake overloaded_error",
        status: 529
      })))
      expect((yield* fake.batches).map((b) => b.customIds.map((id) => id.slice(-2)))).toEqual([["-0"], ["-1"]])
    }).pipe(Effect.provide(FakeAnthropicBatches.layer)))

  it.scopedLive("a state file that is not one stops the layer, naming the file", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-batch-model-")
      const file = join(dir, "state.json")
      writeFileSync(file, "{\"batches\": 3}")
      const exit = yield* Effect.exit(Effect.provide(LanguageModel, AnthropicBatchLanguageModel.layer(options("http://127.0.0.1:9", file))))
      expect(exit).toEqual(Exit.fail(expect.objectContaining({ _tag: "BatchStateError", file, message: `replay batch state ${file}: it is not a replay batch state file` })))
    }))
})

/**
 * A deprecated model is warned about once, at start-up, through the Effect logger; the SDK's own
 * per-call console warning never reaches stderr, however many calls are made.
 */
import { describe, expect, it } from "@effect/vitest"
import { FakeAnthropic, FakeReply } from "@verbatim/testkit/FakeAnthropic"
import { Duration, Effect, Layer, Logger, Option, Redacted } from "effect"
import { vi } from "vitest"
import * as AnthropicLanguageModel from "../src/AnthropicLanguageModel.js"
import { LanguageModel, type ModelRequest, planOf } from "../src/LanguageModel.js"
import { recordPlanTool } from "../src/PlanningTool.js"
import { sdkLogger } from "../src/internal/sdkLogger.js"

const request: ModelRequest = {
  system: "SYSTEM",
  tool: recordPlanTool,
  userContent: "MESSAGES",
  maxTokens: 256,
  timeout: Duration.seconds(5)
}

const plan = { people: [], unattached: [], unclear: [], botMessages: [] }

/** The layer over `model`, against the fake, with every log line kept as `LEVEL message`. */
const run = (model: string, lines: Array<string>) =>
  Effect.gen(function*() {
    const fake = yield* FakeAnthropic
    yield* fake.script(FakeReply.toolUse(plan), FakeReply.toolUse(plan), FakeReply.toolUse(plan))
    const layer = AnthropicLanguageModel.layer({ apiKey: Redacted.make("sk-test"), model, baseUrl: Option.some(fake.baseUrl), timeout: Duration.seconds(5) })
    const capture = Logger.replace(Logger.defaultLogger, Logger.make(({ logLevel, message }) => {
      lines.push(`${logLevel.label} ${Array.isArray(message) ? message.join(" ") : String(message)}`)
    }))
    yield* Effect.flatMap(LanguageModel, (m) => Effect.repeatN(planOf(m)(request), 2)).pipe(Effect.provide(Layer.provideMerge(layer, capture)))
    return (yield* fake.requests).map((r) => (r.body as { model: string }).model)
  }).pipe(Effect.provide(FakeAnthropic.layer))

describe("a deprecated model", () => {
  it.live("is warned about once through the logger, and the SDK writes nothing to the console", () =>
    Effect.gen(function*() {
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
      const lines: Array<string> = []
      // Read the calls before restoring: a restore forgets them.
      const { models, warned } = yield* run("claude-sonnet-4-5", lines).pipe(
        Effect.map((models) => ({ models, warned: [...warn.mock.calls] })),
        Effect.ensuring(Effect.sync(() => warn.mockRestore()))
      )
      expect(models).toEqual(["claude-sonnet-4-5", "claude-sonnet-4-5", "claude-sonnet-4-5"])
      expect(warned).toEqual([])
      expect(lines).toEqual([
        `WARN the model claude-sonnet-4-5 is deprecated and reaches its end of life on November 30th, 2026; set VERBATIM_MODEL to a current model (default ${AnthropicLanguageModel.defaultModel})`
      ])
    }))

  it.live("a current model is not warned about", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      expect(yield* run(AnthropicLanguageModel.defaultModel, lines)).toEqual([
        AnthropicLanguageModel.defaultModel,
        AnthropicLanguageModel.defaultModel,
        AnthropicLanguageModel.defaultModel
      ])
      expect(lines).toEqual([])
    }))
})

describe("the SDK's own logger", () => {
  it.live("logs each distinct warning or error once through the Effect logger", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      const capture = Logger.replace(Logger.defaultLogger, Logger.make(({ logLevel, message }) => {
        lines.push(`${logLevel.label} ${Array.isArray(message) ? message.join(" ") : String(message)}`)
      }))
      const logger = yield* Effect.map(Effect.runtime<never>(), (runtime) => sdkLogger(runtime, "claude-test")).pipe(Effect.provide(capture))
      logger.warn("Anthropic: both keys set")
      logger.warn("Anthropic: both keys set")
      logger.debug("request sent")
      logger.error("bad", new Error("boom"))
      // Debug lines stay below the default minimum level.
      expect(lines).toEqual(["WARN Anthropic: both keys set", "ERROR bad boom"])
    }))
})

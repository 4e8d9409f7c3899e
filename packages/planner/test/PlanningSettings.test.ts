import { describe, expect, it } from "@effect/vitest"
import { BudgetError } from "@verbatim/domain/Budget"
import { ConfigProvider, Duration, Effect, Either } from "effect"
import { toolPromptText } from "../src/BuildRequest.js"
import { recordPlanToolV1 } from "../src/PlanningTool.js"
import { type PlanningLimits, planningLimitsConfig, requestSettings } from "../src/PlanningSettings.js"
import { countChars, errorFields } from "./fixtures.js"

const tool = toolPromptText(recordPlanToolV1).length

const limits = (contextWindow: number): PlanningLimits => ({
  contextWindow,
  maxTokens: 100,
  truncatedMaxTokens: 300,
  requestOverhead: 10,
  contactReserve: 20,
  maxContacts: 5,
  timeout: Duration.seconds(30)
})

describe("requestSettings", () => {
  it("reserves the truncated-retry cap for output and leaves the rest to the prompt", () => {
    const window = 300 + tool + 10 + "SYSTEM".length + 1000
    expect(requestSettings(limits(window), "SYSTEM", countChars, { tool: recordPlanToolV1, zone: null })).toEqual(
      Either.right({
        maxTokens: 100,
        timeout: Duration.seconds(30),
        promptBudget: 1000 + tool + "SYSTEM".length,
        contentBudget: 1000,
        contactReserve: 20,
        maxContacts: 5,
        count: countChars,
        tool: recordPlanToolV1,
        zone: null
      })
    )
  })

  it("fails when the prompt and tool leave no room for messages", () => {
    const window = 300 + tool + 10 + "SYSTEM".length
    const input = { contextWindow: window, outputReservation: 300, toolTokens: tool, requestOverhead: 10, systemTokens: 6 }
    expect(Either.mapLeft(requestSettings(limits(window), "SYSTEM", countChars, { tool: recordPlanToolV1, zone: null }), errorFields)).toEqual(
      Either.left(errorFields(
        new BudgetError({
          reason: "no-room",
          input,
          message: `No room left for messages: context window ${window} − output reservation 300 − tools and schema ${tool} − request overhead 10 − system prompt 6 = 0 tokens`
        })
      ))
    )
  })

  it.effect("reads its defaults when nothing is configured", () =>
    Effect.gen(function*() {
      expect(yield* planningLimitsConfig).toEqual({
        contextWindow: 200_000,
        maxTokens: 8_192,
        truncatedMaxTokens: 16_384,
        requestOverhead: 512,
        contactReserve: 4_000,
        maxContacts: 200,
        timeout: Duration.minutes(2)
      })
    }).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map()))))
})

import { describe, expect, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { propertyRuns } from "@verbatim/testkit/Runs"
import { Either } from "effect"
import { type BudgetInput, promptBudget } from "../src/Budget.js"

const base: BudgetInput = { contextWindow: 1000, outputReservation: 0, toolTokens: 0, requestOverhead: 0, systemTokens: 0 }
const budgetOf = (input: BudgetInput) => Either.getOrThrow(promptBudget(input))
const errorOf = (input: BudgetInput) => Either.getOrThrow(Either.flip(promptBudget(input)))

describe("promptBudget subtractions", () => {
  it("starts from the context window", () => {
    expect(budgetOf(base)).toEqual({ prompt: 1000, content: 1000 })
  })
  it("subtracts the output reservation from both", () => {
    expect(budgetOf({ ...base, outputReservation: 300 })).toEqual({ prompt: 700, content: 700 })
  })
  it("subtracts tool and schema tokens from content only (fitPrompt counts the tools itself)", () => {
    expect(budgetOf({ ...base, toolTokens: 200 })).toEqual({ prompt: 1000, content: 800 })
  })
  it("subtracts the per-request overhead from both", () => {
    expect(budgetOf({ ...base, requestOverhead: 50 })).toEqual({ prompt: 950, content: 950 })
  })
  it("subtracts the system prompt from content only (fitPrompt counts it itself)", () => {
    expect(budgetOf({ ...base, systemTokens: 120 })).toEqual({ prompt: 1000, content: 880 })
  })
  it("subtracts all of them together", () => {
    const input = { contextWindow: 200_000, outputReservation: 8_192, toolTokens: 1_500, requestOverhead: 24, systemTokens: 2_000 }
    expect(budgetOf(input)).toEqual({ prompt: 191_784, content: 188_284 })
  })
})

describe("promptBudget errors", () => {
  it("one token left is enough", () => {
    expect(budgetOf({ ...base, systemTokens: 999 })).toEqual({ prompt: 1000, content: 1 })
  })
  it("no room left names every number", () => {
    const input = { contextWindow: 1000, outputReservation: 400, toolTokens: 300, requestOverhead: 100, systemTokens: 200 }
    const error = errorOf(input)
    expect(error.reason).toBe("no-room")
    expect(error.message).toBe(
      "No room left for messages: context window 1000 − output reservation 400 − tools and schema 300" +
        " − request overhead 100 − system prompt 200 = 0 tokens"
    )
  })
  it("a negative or fractional number is refused", () => {
    const error = errorOf({ ...base, toolTokens: -5 })
    expect(error.reason).toBe("invalid-number")
    expect(error.message).toBe(
      "Token budget numbers must be non-negative integers: context window 1000 − output reservation 0" +
        " − tools and schema -5 − request overhead 0 − system prompt 0"
    )
    expect(errorOf({ ...base, outputReservation: 1.5 }).reason).toBe("invalid-number")
  })
})

const count = fc.nat({ max: 1_000_000 })

describe("promptBudget properties", () => {
  test.prop([count, count, count, count, count], { numRuns: propertyRuns() })(
    "is never negative and adds back up",
    (contextWindow, outputReservation, toolTokens, requestOverhead, systemTokens) => {
      const input = { contextWindow, outputReservation, toolTokens, requestOverhead, systemTokens }
      const left = contextWindow - outputReservation - toolTokens - requestOverhead - systemTokens
      if (left < 1) {
        expect(errorOf(input).reason).toBe("no-room")
      } else {
        expect(promptBudget(input)).toEqual(Either.right({ prompt: left + toolTokens + systemTokens, content: left }))
      }
    }
  )
})

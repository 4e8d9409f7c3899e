import { describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import { defaultModel } from "../src/AnthropicLanguageModel.js"
import { cost, formatDollars, listPrice } from "../src/ModelPrices.js"

describe("ModelPrices", () => {
  it("prices a dated model id by its family's list price, and the default model", () => {
    expect(listPrice("claude-sonnet-4-5-20250929")).toEqual(Option.some({ inputPerMillion: 3, outputPerMillion: 15 }))
    expect(Option.map(cost("claude-sonnet-4-5", { input: 10_000, output: 1_000 }), formatDollars)).toEqual(Option.some("$0.0450"))
    expect(listPrice(defaultModel)).toEqual(Option.some({ inputPerMillion: 2, outputPerMillion: 10 }))
    expect(Option.map(cost("claude-haiku-4-5", { input: 1_000_000, output: 0 }), formatDollars)).toEqual(Option.some("$1.0000"))
  })

  it("prices batched calls at half the list price", () => {
    expect(Option.map(cost("claude-sonnet-4-5", { input: 10_000, output: 1_000 }, "batch"), formatDollars)).toEqual(Option.some("$0.0225"))
  })

  it("has no price for a model it does not list", () => {
    expect(cost("scripted", { input: 1000, output: 100 })).toEqual(Option.none())
  })
})

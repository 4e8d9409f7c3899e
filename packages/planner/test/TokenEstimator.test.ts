import { describe, expect, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { propertyRuns } from "@verbatim/testkit/Runs"
import * as TokenEstimator from "../src/TokenEstimator.js"

const runs = { numRuns: propertyRuns() }
const text = fc.oneof(fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }))

describe("TokenEstimator.textTokens", () => {
  it("counts UTF-8 bytes: English, accents, CJK, emoji, ZWJ sequences, flags", () => {
    expect(
      ["hello", "héllo", "文字", "😀", "👨‍👩‍👧‍👦", "🇫🇷", "e\u0301", ""].map(TokenEstimator.textTokens)
    ).toEqual([5, 6, 6, 4, 25, 8, 3, 0])
  })

  test.prop([text], runs)("is never below one token per code point (the worst a byte-level BPE can do)", (t) => {
    expect(TokenEstimator.textTokens(t)).toBeGreaterThanOrEqual(Array.from(t).length)
    expect(TokenEstimator.textTokens(t)).toBe(new TextEncoder().encode(t).length)
  })

  test.prop([text, text], runs)("adds up: counting parts separately equals counting them joined", (a, b) => {
    expect(TokenEstimator.textTokens(a + b)).toBe(TokenEstimator.textTokens(a) + TokenEstimator.textTokens(b))
  })
})

describe("TokenEstimator.requestTokens", () => {
  it("adds framing, the tool-use preamble, the tools' JSON and every text", () => {
    const request = { system: "sys", tools: [{ name: "plan" }], messages: [{ role: "user" as const, content: "hi" }] }
    expect(TokenEstimator.requestTokens(request)).toBe(16 + 3 + 400 + 15 + 8 + 2)
  })

  it("adds no tool-use preamble without tools", () => {
    expect(TokenEstimator.requestTokens({ system: "", tools: [], messages: [] })).toBe(16)
  })

  test.prop([fc.string(), fc.array(fc.string()), fc.array(fc.string())], runs)(
    "is never below the texts' own count",
    (system, tools, contents) => {
      const messages = contents.map((content) => ({ role: "user" as const, content }))
      const texts = [system, ...tools.map((tool) => JSON.stringify(tool)), ...contents]
      const floor = texts.reduce((n, t) => n + TokenEstimator.textTokens(t), 0)
      expect(TokenEstimator.requestTokens({ system, tools, messages })).toBeGreaterThan(floor)
    }
  )
})

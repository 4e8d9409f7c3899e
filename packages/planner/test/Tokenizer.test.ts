import { describe, expect, it } from "@effect/vitest"
import { FakeTokenizer } from "@verbatim/testkit"
import { Effect, Layer } from "effect"
import * as TokenEstimator from "../src/TokenEstimator.js"
import { counterFor, make, Tokenizer } from "../src/Tokenizer.js"

const request: TokenEstimator.TokenRequest = {
  system: "You file notes.",
  tools: [{ name: "plan" }],
  messages: [{ role: "user", content: "Bob 🇫🇷" }, { role: "assistant", content: "ok" }]
}

describe("Tokenizer.layer (the estimator)", () => {
  it.effect("counts bytes for a text and adds framing for a request", () =>
    Effect.gen(function*() {
      const tokenizer = yield* Tokenizer
      expect(yield* tokenizer.countText("héllo")).toBe(6)
      expect(yield* tokenizer.countRequest(request)).toBe(16 + 15 + 400 + 15 + 8 + 12 + 8 + 2)
    }).pipe(Effect.provide(Tokenizer.layer)))
})

describe("FakeTokenizer.layer", () => {
  it.effect("counts one token per UTF-16 code unit, with no framing", () =>
    Effect.gen(function*() {
      const tokenizer = yield* Tokenizer
      expect(yield* tokenizer.countText("a😀é")).toBe(4)
      expect(yield* tokenizer.countRequest(request)).toBe(15 + 15 + 8 + 2)
    }).pipe(Effect.provide(FakeTokenizer.layer)))
})

describe("counterFor", () => {
  it.effect("counts each distinct text once through the service; other texts by the estimator", () =>
    Effect.gen(function*() {
      const asked: Array<string> = []
      const spy = Layer.succeed(Tokenizer, make((text) => (asked.push(text), text.length), () => 0))
      const count = yield* counterFor(["ab", "é", "ab"]).pipe(Effect.provide(spy))
      expect(asked).toEqual(["ab", "é"])
      expect([count("ab"), count("é"), count("ée")]).toEqual([2, 1, 3])
    }))
})

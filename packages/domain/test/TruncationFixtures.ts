/** Shared arbitraries for the truncation tests: texts rich in multi-unit graphemes, counters, budgets. */
import type { TokenCounter } from "@verbatim/domain/TokenCounter"
import { FakeTokenizer } from "@verbatim/testkit"
import { fc } from "@fast-check/vitest"

/** Graphemes that span several code units or code points. */
export const tricky = {
  emoji: "😀",
  family: "👨‍👩‍👧‍👦",
  flagFr: "🇫🇷",
  flagDe: "🇩🇪",
  combined: "e\u0301",
  cjk: "文",
  hangulJamo: "\u1100\u1161"
} as const

const utf8 = new TextEncoder()

/** Three counters with different ideas of size, all monotone over prefixes. */
export const counters: Record<string, TokenCounter> = {
  units: FakeTokenizer.countUnits,
  codePoints: (text) => Array.from(text).length,
  bytes: (text) => utf8.encode(text).length
}

export const counter = fc.constantFrom(...Object.keys(counters)).map((name) => counters[name]!)

export const text = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.array(fc.constantFrom(...Object.values(tricky), "a", " ", "z"), { maxLength: 30 }).map((parts) => parts.join(""))
)

/** Budgets from 0, mostly small enough to force cuts. */
export const budget = fc.oneof(fc.nat({ max: 40 }), fc.nat({ max: 400 }))

/** A counter that records how often it was called. */
export const counting = (count: TokenCounter) => {
  const calls = { value: 0 }
  const counted: TokenCounter = (text) => {
    calls.value += 1
    return count(text)
  }
  return { calls, counted }
}

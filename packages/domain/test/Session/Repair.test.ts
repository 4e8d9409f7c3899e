/** Model text made storable: U+0000 removed, a lone surrogate replaced by U+FFFD, everything else kept. */
import { describe, expect, it } from "@effect/vitest"
import { propertyRuns } from "@verbatim/testkit/Runs"
import fc from "fast-check"
import { repairStrings, storableText } from "../../src/Session/Repair.js"

const isSurrogate = (unit: string) => unit.length === 1 && unit.charCodeAt(0) >= 0xd800 && unit.charCodeAt(0) <= 0xdfff

/** The repair by code points: the string iterator yields a lone surrogate alone and a pair whole. */
const expected = (text: string): string => [...text].filter((c) => c !== "\u0000").map((c) => (isSurrogate(c) ? "\uFFFD" : c)).join("")

/** Whether a string holds U+0000 or a lone surrogate. */
const unstorable = (text: string): boolean => [...text].some((c) => c === "\u0000" || isSurrogate(c))

/** Text rich in what cannot be stored: lone halves, U+0000, whole pairs and plain characters. */
const unit = fc.oneof(
  fc.constantFrom("\u0000", "\uD800", "\uDBFF", "\uDC00", "\uDFFF", "\uD83D", "\uDE00", "\uD83D\uDE00", "a", "é"),
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code))
)
const rawText = fc.string({ unit, maxLength: 12 })

/** JSON-like values whose keys are plain and whose strings may need repair. */
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    rawText,
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie("value"), { maxKeys: 4 })
  )
}))

/** The value with every string replaced by one mark: its structure and its other values. */
const shape = (v: unknown): unknown =>
  typeof v === "string"
    ? "<string>"
    : Array.isArray(v)
    ? v.map(shape)
    : v !== null && typeof v === "object"
    ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]))
    : v

const strings = (v: unknown): Array<string> =>
  typeof v === "string"
    ? [v]
    : Array.isArray(v)
    ? v.flatMap(strings)
    : v !== null && typeof v === "object"
    ? Object.values(v).flatMap(strings)
    : []

const runs = { numRuns: propertyRuns(1_000) }

describe("storableText", () => {
  it("removes U+0000 and replaces each lone surrogate, keeping whole pairs", () => {
    expect([
      storableText("a\u0000b\u0000"),
      storableText("x\uD800y"),
      storableText("x\uDC00"),
      storableText("\uDE00\uD83D"),
      storableText("\uD83D\uDE00 ok"),
      storableText("\uD83D\uD83D\uDE00"),
      storableText("plain café")
    ]).toEqual(["ab", "x\uFFFDy", "x\uFFFD", "\uFFFD\uFFFD", "\uD83D\uDE00 ok", "\uFFFD\uD83D\uDE00", "plain café"])
  })

  it("never leaves U+0000 or a lone surrogate, and changes nothing else", () => {
    fc.assert(
      fc.property(rawText, (text) => {
        const stored = storableText(text)
        expect([stored, unstorable(stored)]).toEqual([expected(text), false])
      }),
      runs
    )
  })

  it("returns text that had neither unchanged", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 20 }).map((t) => t.replaceAll("\u0000", "")), (text) => {
        expect(storableText(text)).toBe(text)
      }),
      runs
    )
  })
})

describe("repairStrings", () => {
  it("repairs every string inside a value and counts the strings it changed", () => {
    const input = { name: "A\u0000na", list: ["ok", "\uD800", 3, null, true], nested: { deep: ["x\uDFFF"] }, n: 1.5 }
    expect(repairStrings(input)).toEqual({
      value: { name: "Ana", list: ["ok", "\uFFFD", 3, null, true], nested: { deep: ["x\uFFFD"] }, n: 1.5 },
      repaired: 3
    })
  })

  it("repairs keys too, counting each, and a cleaned key never overwrites another key's value", () => {
    expect(repairStrings({ "a\u0000": "x", ok: 1 })).toEqual({ value: { a: "x", ok: 1 }, repaired: 1 })
    expect(repairStrings({ "a\u0000": "x", b: "y\u0000" })).toEqual({ value: { a: "x", b: "y" }, repaired: 2 })
    expect(repairStrings({ "a\u0000": 1, a: 2 })).toEqual({ value: { "a\uFFFD": 1, a: 2 }, repaired: 1 })
  })

  it("returns the very value when nothing needed repair", () => {
    const input = { people: [{ name: "Ana" }], botMessages: [4] }
    const result = repairStrings(input)
    expect([result.value === input, result.repaired]).toEqual([true, 0])
    expect(repairStrings(42)).toEqual({ value: 42, repaired: 0 })
  })

  it("keeps the structure and every value but strings, and leaves no string unstorable", () => {
    fc.assert(
      fc.property(value, (input) => {
        const { repaired, value: output } = repairStrings(input)
        expect(shape(output)).toEqual(shape(input))
        expect(strings(output)).toEqual(strings(input).map(expected))
        expect(repaired).toBe(strings(input).filter(unstorable).length)
      }),
      runs
    )
  })
})

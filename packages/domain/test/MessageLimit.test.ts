import { describe, expect, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { propertyRuns } from "@verbatim/testkit/Runs"
import { maxNesting, nesting, textNesting } from "../src/Inbound/bodyShape.js"
import { maxMessageBytes, tooLong, utf8Length } from "../src/MessageLimit.js"

const runs = { numRuns: propertyRuns() }
const encoder = new TextEncoder()

describe("one message's limit", () => {
  test.prop([fc.oneof(fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }), fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) }))], runs)(
    "counts UTF-8 bytes as an encoder writes them, lone surrogates as U+FFFD",
    (text) => {
      expect(utf8Length(text)).toBe(encoder.encode(text).length)
    }
  )

  it("holds exactly 1 MiB of UTF-8, whatever the script; one byte more is refused and says by how much", () => {
    const ascii = "a".repeat(maxMessageBytes)
    const accented = "é".repeat(maxMessageBytes / 2)
    const emoji = "😀".repeat(maxMessageBytes / 4)
    expect([tooLong(ascii), tooLong(accented), tooLong(emoji), tooLong(`${accented}!`), tooLong(`${emoji}😀`)]).toEqual([
      null,
      null,
      null,
      "is 1,048,577 bytes of UTF-8; one message holds at most 1,048,576 (1 MiB)",
      "is 1,048,580 bytes of UTF-8; one message holds at most 1,048,576 (1 MiB)"
    ])
  })
})

describe("nesting of a JSON text", () => {
  test.prop([fc.jsonValue({ maxDepth: 8 })], runs)("is the nesting of the value it parses to", (value) => {
    expect(textNesting(JSON.stringify(value))).toBe(nesting(value))
  })

  it("ignores brackets inside strings, escaped quotes included", () => {
    expect(textNesting(String.raw`{"a": "[[{\"[", "b": [1, "]]]"]}`)).toBe(2)
  })

  it("stops counting once past the limit, however deep the text goes", () => {
    expect(textNesting("[".repeat(200_000) + "]".repeat(200_000))).toBe(maxNesting + 1)
    expect(textNesting("[".repeat(maxNesting) + "]".repeat(maxNesting))).toBe(maxNesting)
  })
})

import { describe, expect, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { propertyRuns } from "@verbatim/testkit/Runs"
import { maxNesting, nesting, notTextIn, textNesting } from "../src/Inbound/bodyShape.js"
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

describe("text a store keeps exactly", () => {
  /** The first lone surrogate or U+0000, found by walking the units one by one. */
  const firstNotText = (text: string): string | null => {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i)
      const high = code >= 0xd800 && code <= 0xdbff
      if (high && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++
      else if (code === 0) return "U+0000 (NUL)"
      else if (high || (code >= 0xdc00 && code <= 0xdfff)) return `a lone surrogate U+${code.toString(16).toUpperCase()}`
    }
    return null
  }
  const units = fc.oneof(
    fc.string({ unit: "grapheme" }),
    fc.string({ unit: "binary" }),
    fc.string({ unit: fc.constantFrom("a", "\u0000", "\ud83d", "\ude00", "😀", "é") })
  )

  test.prop([units], runs)("names the first lone surrogate or U+0000, and nothing in well-formed text", (text) => {
    expect(notTextIn(text)).toBe(firstNotText(text))
  })

  it("names what it found", () => {
    expect([notTextIn("plain 😀"), notTextIn("a\u0000b"), notTextIn("x\ud83d"), notTextIn("\ude00y"), notTextIn("😀\u0000\ud83d")]).toEqual([
      null,
      "U+0000 (NUL)",
      "a lone surrogate U+D83D",
      "a lone surrogate U+DE00",
      "U+0000 (NUL)"
    ])
  })
})

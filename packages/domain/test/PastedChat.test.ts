/**
 * A pasted chat read back into its messages: named examples of WhatsApp's copied lines (with and
 * without seconds, day or month first, 12-hour clocks, marks around a phone number), its exported
 * lines, `Name: text` lines, continuation lines and pastes with no names; then properties: any list
 * of messages rendered in either format reads back as exactly those authors and texts, and the
 * pieces of any paste put back together are the paste.
 */
import { fc, test } from "@fast-check/vitest"
import { describe, expect, it } from "@effect/vitest"
import { parsePastedChat, type PastedMessage } from "../src/Inbound/PastedChat.js"

const read = (paste: string) => parsePastedChat(paste).map((m) => [m.author, m.text])
const whole = (messages: ReadonlyArray<PastedMessage>) => messages.map((m) => m.prefix + m.text + m.gap).join("")

describe("a pasted chat, by example", () => {
  it("reads WhatsApp's copied lines, a message of several lines kept whole", () => {
    const paste = "[12:01, 05/12/2026] Ana: Moved to Porto!\nStarts at the clinic in May.\n[12:03, 05/12/2026] Tom: 🎉 Great: tell her I said so"
    expect(parsePastedChat(paste)).toEqual([
      { author: "Ana", prefix: "[12:01, 05/12/2026] Ana: ", text: "Moved to Porto!\nStarts at the clinic in May.", gap: "\n" },
      { author: "Tom", prefix: "[12:03, 05/12/2026] Tom: ", text: "🎉 Great: tell her I said so", gap: "" }
    ])
  })

  it("reads copied lines with seconds, a 12-hour clock, month first, dots and two-digit years", () => {
    expect(read("[21:15:42, 31/12/2026] Ana: one\n[9:15\u202fPM, 12/31/26] Ana: two\n[09:05, 1.1.2027] Tom: three")).toEqual([
      ["Ana", "one"],
      ["Ana", "two"],
      ["Tom", "three"]
    ])
  })

  it("takes WhatsApp's marks out of a phone-number author, and keeps them in the prefix", () => {
    const [message] = parsePastedChat("[12:01, 05/12/2026] \u202a+351 912 345 678\u202c: Olá")
    expect(message).toEqual({ author: "+351 912 345 678", prefix: "[12:01, 05/12/2026] \u202a+351 912 345 678\u202c: ", text: "Olá", gap: "" })
  })

  it("reads lines from an exported chat, Android's and iOS's", () => {
    expect(read("31/12/2023, 21:15 - Ana: hi\n1/1/24, 9:05 - Tom: yo")).toEqual([["Ana", "hi"], ["Tom", "yo"]])
    expect(read("[31/12/2023, 21:15:00] Ana: hi\n[01/01/2024, 09:05:00] Tom: yo")).toEqual([["Ana", "hi"], ["Tom", "yo"]])
  })

  it("in a WhatsApp paste, a `Name: text` line is part of the message before it", () => {
    expect(read("[12:01, 05/12/2026] Ana: My list:\nMilk: 2 litres\nBread: one")).toEqual([["Ana", "My list:\nMilk: 2 litres\nBread: one"]])
  })

  it("reads `Name: text` lines, continuation lines and blank lines between them", () => {
    const paste = "Ana: Moved to Porto.\nShe starts in May.\n\nTom: Great news\n"
    expect(parsePastedChat(paste)).toEqual([
      { author: "Ana", prefix: "Ana: ", text: "Moved to Porto.\nShe starts in May.", gap: "\n\n" },
      { author: "Tom", prefix: "Tom: ", text: "Great news", gap: "\n" }
    ])
  })

  it("keeps lines before the first name as a message without an author", () => {
    expect(read("\n  \nFrom the family group:\nAna: hi")).toEqual([[null, "From the family group:"], ["Ana", "hi"]])
    expect(parsePastedChat("\n  \nFrom the family group:\nAna: hi")[0]!.prefix).toBe("\n  \n")
  })

  it("a paste with no names is one message, every character kept", () => {
    const paste = "Ana moved to Porto.\n\nhttps://example.com/a:b  \n"
    expect(parsePastedChat(paste)).toEqual([{ author: null, prefix: "", text: "Ana moved to Porto.\n\nhttps://example.com/a:b  ", gap: "\n" }])
  })

  it("a name with nothing said after it starts no message", () => {
    expect(read("Ana: hi\nTom: \nNote:")).toEqual([["Ana", "hi\nTom: \nNote:"]])
  })

  it("a paste of blank lines holds no message", () => {
    expect(parsePastedChat(" \n\n\t")).toEqual([])
    expect(parsePastedChat("")).toEqual([])
  })
})

// Authors as people's names are written; a line of text never starts like a message line.
const author = fc.stringMatching(/^[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ0-9 .'’+-]{0,18}[A-Za-zÀ-ÿ0-9]$/)
const firstLine = fc.string({ unit: "grapheme", minLength: 1 }).filter((line) => !line.includes("\n") && line.trim() !== "")
const laterLine = fc.string({ unit: "grapheme" }).filter((line) => !line.includes("\n") && !line.includes(":") && !/^[\s\u200e\u200f]*[[\d]/.test(line))
const text = fc.tuple(firstLine, fc.array(laterLine, { maxLength: 3 }), fc.option(firstLine.filter((l) => !l.includes(":") && !/^[\s\u200e\u200f]*[[\d]/.test(l)), { nil: undefined }))
  .map(([first, middle, last]) => [first, ...(last === undefined ? [] : [...middle, last])].join("\n"))
const message = fc.record({ author, text })
const stamp = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.boolean(), fc.integer({ min: 1, max: 28 }), fc.integer({ min: 1, max: 12 }))
  .map(([h, m, seconds, day, month]) => `[${h}:${String(m).padStart(2, "0")}${seconds ? ":07" : ""}, ${day}/${month}/2026] `)

describe("a pasted chat, as properties", () => {
  test.prop([fc.array(message, { minLength: 1, maxLength: 6 })])("`Name: text` lines read back as exactly those authors and texts", (messages) => {
    const paste = messages.map((m) => `${m.author}: ${m.text}`).join("\n")
    expect(read(paste)).toEqual(messages.map((m) => [m.author, m.text]))
    expect(whole(parsePastedChat(paste))).toBe(paste)
  })

  test.prop([fc.array(fc.tuple(stamp, message), { minLength: 1, maxLength: 6 })])("WhatsApp's copied lines read back as exactly those authors and texts", (messages) => {
    const paste = messages.map(([s, m]) => `${s}${m.author}: ${m.text}`).join("\n")
    expect(read(paste)).toEqual(messages.map(([, m]) => [m.author, m.text]))
    expect(whole(parsePastedChat(paste))).toBe(paste)
  })

  test.prop([fc.string({ unit: "binary" })])("no character of any paste is lost", (paste) => {
    const messages = parsePastedChat(paste)
    expect(messages.length === 0 ? paste.trim() === "" : whole(messages) === paste).toBe(true)
    expect(messages.every((m) => m.text.trim() !== "")).toBe(true)
  })

  test.prop([fc.array(fc.oneof(fc.constantFrom("Ana: ", "[12:01, 05/12/2026] Tom: ", "\n", " ", "\u200e", "x"), fc.string()), { maxLength: 30 })])(
    "no character of a paste made of message pieces is lost",
    (pieces) => {
      const paste = pieces.join("")
      const messages = parsePastedChat(paste)
      expect(messages.length === 0 ? paste.trim() === "" : whole(messages) === paste).toBe(true)
    }
  )
})

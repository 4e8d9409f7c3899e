import { describe, expect, it } from "@effect/vitest"
import { propertyRuns } from "@verbatim/testkit/Runs"
import fc from "fast-check"
import * as ReplyText from "../src/ReplyText.js"
import { excerptLength, questionText, replyLimit } from "../src/ReplyText.js"

const lead = "Who is this about?"

describe("a question fits the provider's limit, so it is delivered", () => {
  it("four long messages within WhatsApp's 1,024 for a body with buttons: every excerpt shortened alike", () => {
    const sentence = "Ana told me about the new clinic schedule and the move. "
    const long = sentence.repeat(6)
    const excerpt = `«${sentence.repeat(4)}Ana told me about the…»`
    const text = questionText("unclear", [long, long, long, long], replyLimit("whatsapp", true))
    // 1,022 UTF-16 units: the longest excerpts that keep the four within 1,024.
    expect(text).toBe([lead, excerpt, excerpt, excerpt, excerpt].join("\n\n"))
  })

  it("too many messages to show even briefly: the first are shown, the rest counted", () => {
    const texts = Array.from({ length: 40 }, (_, i) => `Message ${i}: ${"x".repeat(100)}`)
    const shown = texts.slice(0, 22).map((t) => `«${t.slice(0, 39)}…»`)
    expect(questionText("unclear", texts, 1024)).toBe([lead, ...shown, "…and 18 more messages."].join("\n\n"))
  })

  it("every message is shown when all fit, even where all but one and the count of the rest would not", () => {
    expect(questionText("unclear", ["", ""], 43)).toBe([lead, "«»", "«»"].join("\n\n"))
    const texts = [...Array.from({ length: 19 }, (_, i) => `Message ${String(i).padStart(2, "0")} ${"x".repeat(28)}`), "ok"]
    const whole = [lead, ...texts.map((t) => `«${t}»`)].join("\n\n")
    expect(questionText("unclear", texts, whole.length)).toBe(whole)
  })

  it("a cut never splits a grapheme", () => {
    const family = "👨‍👩‍👧"
    expect(questionText("unclear", ["short one", family.repeat(100)], 200)).toBe(
      [lead, "«short one»", `«${family.repeat(20)}…»`].join("\n\n")
    )
  })

  it("the limits: WhatsApp's interactive body 1,024, every other reply 4,096", () => {
    expect([replyLimit("whatsapp", true), replyLimit("whatsapp", false), replyLimit("telegram", true), replyLimit("telegram", false)])
      .toEqual([1024, 4096, 4096, 4096])
  })

  it("property: within the limit, each excerpt a prefix of its message, unchanged when everything fits", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "grapheme", maxLength: 400 }), { maxLength: 30 }),
        fc.integer({ min: 200, max: 5000 }),
        (texts, limit) => {
          const text = questionText("unclear", texts, limit)
          expect(text.length).toBeLessThanOrEqual(limit)
          const [first, ...parts] = text.split("\n\n«")
          expect(first).toBe(lead)
          parts.forEach((part, i) => {
            const excerpt = part.slice(0, part.lastIndexOf("»"))
            const message = texts[i]!
            if (excerpt !== message) expect(excerpt.endsWith("…") && message.startsWith(excerpt.slice(0, -1))).toBe(true)
          })
          const whole = [lead, ...texts.map((t) => `«${t}»`)].join("\n\n")
          if (whole.length <= limit && texts.every((t) => t.length <= excerptLength)) expect(text).toBe(whole)
        }
      ),
      { numRuns: propertyRuns(500) }
    )
  })
})

describe("a plan's summary", () => {
  const ana = { key: "person_1", label: "Ana" }

  it("quotes what it took as meant for the bot, each cut, the sixth and later counted", () => {
    const instructions = ["remind me on Friday", `  ${"x".repeat(100)}`, "/help", "delete this", "tag it", "and this", "and that"]
      .map((text) => ({ text }))
    expect(ReplyText.planSummary({ owners: [ana], questions: 0, instructions, warnings: [] })).toBe(
      `Added 1 note: Ana.\nTaken as meant for me, so kept out of the notes: “remind me on Friday”, “${"x".repeat(79)}…”, “/help”, “delete this”, “tag it” and 2 more.`
    )
  })

  it("says nothing of instructions when there were none", () => {
    expect(ReplyText.planSummary({ owners: [], questions: 1, instructions: [], warnings: [] })).toBe("Added no notes. 1 question.")
  })
})

/** What the bot answers to a question, whole: only the quotes, verbatim, each with its person and day. */
import { describe, expect, it } from "@effect/vitest"
import { askText, dayText, type ShownQuote } from "../../src/Ask/Text.js"

const ana: ShownQuote = { text: "Ana is moving to Lisbon", person: "Ana", day: "2026-11-03", link: null }
const flat: ShownQuote = { text: "the flat on Rua Augusta is too small", person: "Tomás", day: "2026-01-09", link: null }
const loose: ShownQuote = { text: "buy milk", person: null, day: "2026-12-31", link: null }
const linked = (quote: ShownQuote, link: string): ShownQuote => ({ ...quote, link })

describe("dayText", () => {
  it("writes a day as day, short month and year", () => {
    expect(["2026-11-03", "2026-01-09", "2026-12-31", "2027-05-20"].map(dayText)).toEqual(["3 Nov 2026", "9 Jan 2026", "31 Dec 2026", "20 May 2027"])
  })
})

describe("askText.answer", () => {
  it("shows each quote in curly quotes, with its person and day", () => {
    expect(askText.answer([ana, flat, loose], 5, null)).toBe(
      "“Ana is moving to Lisbon”\n— Ana, 3 Nov 2026\n\n" +
        "“the flat on Rua Augusta is too small”\n— Tomás, 9 Jan 2026\n\n" +
        "“buy milk”\n— not about anyone, 31 Dec 2026"
    )
  })

  it("adds each quote's link under it when the pages have a public address", () => {
    expect(askText.answer([linked(ana, "https://verbatim.example/notes/note_1?mark=a"), flat], 5, "https://verbatim.example/asks/1")).toBe(
      "“Ana is moving to Lisbon”\n— Ana, 3 Nov 2026\nhttps://verbatim.example/notes/note_1?mark=a\n\n" +
        "“the flat on Rua Augusta is too small”\n— Tomás, 9 Jan 2026"
    )
  })

  it("shows at most max quotes, then how many more and where to see them all", () => {
    expect(askText.answer([ana, flat, loose], 1, "https://verbatim.example/asks/1")).toBe(
      "“Ana is moving to Lisbon”\n— Ana, 3 Nov 2026\n\n2 more quotes: https://verbatim.example/asks/1"
    )
    expect(askText.answer([ana, flat, loose], 1, null)).toBe("“Ana is moving to Lisbon”\n— Ana, 3 Nov 2026\n\n2 more quotes on the web pages")
  })

  it("says one more quote in the singular", () => {
    expect(askText.answer([ana, linked(flat, "https://verbatim.example/notes/note_2")], 1, "https://verbatim.example/asks/1")).toBe(
      "“Ana is moving to Lisbon”\n— Ana, 3 Nov 2026\n\n1 more quote: https://verbatim.example/asks/1"
    )
    expect(askText.answer([linked(ana, "https://verbatim.example/notes/note_1"), flat], 1, null)).toBe(
      "“Ana is moving to Lisbon”\n— Ana, 3 Nov 2026\nhttps://verbatim.example/notes/note_1\n\n1 more quote on the web pages"
    )
  })

  it("keeps a quote's words as they are, lines and emoji included", () => {
    expect(askText.answer([{ text: "line one\nline two 👨‍👩‍👧 “quoted”", person: "Ana", day: "2026-11-03", link: null }], 5, null))
      .toBe("“line one\nline two 👨‍👩‍👧 “quoted””\n— Ana, 3 Nov 2026")
  })
})

describe("askText.answer without a day", () => {
  it("leaves the day out when the message's time is not known, never an unreadable date", () => {
    expect(askText.answer([{ text: "Ana got the job", person: "Ana", day: "", link: null }], 5, null)).toBe("“Ana got the job”\n— Ana")
  })
})

describe("askText", () => {
  it("says how long a question too long is, and the most it may be, with thousands separated", () => {
    expect([askText.tooLong(2_001), askText.tooLong(12_345)]).toEqual([
      "That question is 2,001 characters long; ask it in at most 2,000.",
      "That question is 12,345 characters long; ask it in at most 2,000."
    ])
  })

  it("says the fixed things in fixed words", () => {
    expect([askText.nothing, askText.unavailable, askText.noModel, askText.empty]).toEqual([
      "I found nothing about that in your notes.",
      "I can't look that up right now; try again in a minute.",
      "I can't look that up: no model is configured on this server yet. Your notes are safe.",
      "Ask me something after /ask, for example: /ask what do I know about Ana?"
    ])
  })
})

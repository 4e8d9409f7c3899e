/** A plan's reminders checked against the messages: exact words or no reminder, a clear time or a question. */
import { DateTime } from "effect"
import { describe, expect, it } from "vitest"
import { MessageId } from "../../src/Ids.js"
import { proposedReminders, reminderIdOf } from "../../src/Reminders/FromPlan.js"

const friday = "Remind me to ask him about the sublet on Friday."
const text = `Tomás is moving to Lisbon in May. ${friday}`
const messageId = MessageId.make("telegram:42")
// Wednesday 2026-03-25, 18:00 in Lisbon (still winter time: UTC).
const sentAt = DateTime.unsafeMake(Date.parse("2026-03-25T18:00:00Z"))
const sources = [{ seq: 1, messageId, text, sentAt }]
const start = text.indexOf(friday)
const words = { seq: 1, reminderId: reminderIdOf(messageId, start, start + friday.length), messageId, quote: friday, start, end: start + friday.length }

describe("proposedReminders", () => {
  it("schedules exact words at the clock time in the sender's zone, across the change to summer time", () => {
    expect(proposedReminders([{ seq: 1, quote: friday, due: "2026-03-27T09:00" }, { seq: 1, quote: friday, due: "2026-03-30T09:00" }], sources, "Europe/Lisbon"))
      .toEqual([{
        _tag: "Schedule",
        ...words,
        dueAt: DateTime.unsafeMake(Date.parse("2026-03-27T09:00:00Z")),
        local: "2026-03-27T09:00",
        resolution: "exact"
      }])
    expect(proposedReminders([{ seq: 1, quote: friday, due: "2026-03-30T09:00" }], sources, "Europe/Lisbon")).toEqual([{
      _tag: "Schedule",
      ...words,
      dueAt: DateTime.unsafeMake(Date.parse("2026-03-30T08:00:00Z")),
      local: "2026-03-30T09:00",
      resolution: "exact"
    }])
  })

  it("finds no reminder in words that are not exactly in the message, or in a message not in the session", () => {
    expect(proposedReminders([
      { seq: 1, quote: "remind me to ask him about the sublet on Friday", due: "2026-03-27T09:00" },
      { seq: 1, quote: "Remind me to ask him about the sublet on Friday. ", due: "2026-03-27T09:00" },
      { seq: 1, quote: "", due: "2026-03-27T09:00" },
      { seq: 7, quote: friday, due: "2026-03-27T09:00" }
    ], sources, "UTC")).toEqual([
      { _tag: "NotAQuote", seq: 1, quote: "remind me to ask him about the sublet on Friday" },
      { _tag: "NotAQuote", seq: 1, quote: "Remind me to ask him about the sublet on Friday. " },
      { _tag: "NotAQuote", seq: 1, quote: "" },
      { _tag: "NotAQuote", seq: 7, quote: friday }
    ])
  })

  it("asks when a time does not read as a clock time, has passed by the message's own time, or is over five years ahead", () => {
    expect(proposedReminders([{ seq: 1, quote: friday, due: "Friday 9am" }], sources, "UTC"))
      .toEqual([{ _tag: "AskWhen", ...words, due: "Friday 9am", why: "unreadable" }])
    expect(proposedReminders([{ seq: 1, quote: friday, due: "2026-03-25T18:00" }], sources, "UTC"))
      .toEqual([{ _tag: "AskWhen", ...words, due: "2026-03-25T18:00", why: "passed" }])
    expect(proposedReminders([{ seq: 1, quote: friday, due: "2031-03-25T18:01" }], sources, "UTC"))
      .toEqual([{ _tag: "AskWhen", ...words, due: "2031-03-25T18:01", why: "too-far" }])
    expect(proposedReminders([{ seq: 1, quote: friday, due: "2031-03-25T18:00" }], sources, "UTC").map((p) => p._tag)).toEqual(["Schedule"])
  })

  it("names a reminder by its message and characters, in 22 characters", () => {
    const id = reminderIdOf(messageId, start, start + friday.length)
    expect(id).toMatch(/^r[0-9a-z]{21}$/)
    expect(reminderIdOf(messageId, start, start + friday.length)).toBe(id)
    expect(new Set([id, reminderIdOf(messageId, start + 1, start + friday.length), reminderIdOf(MessageId.make("telegram:43"), start, start + friday.length)]).size)
      .toBe(3)
  })

  it("keeps odd Unicode exactly, offsets in UTF-16 units", () => {
    const odd = "👩‍👩‍👧 e\u0301 ask Zoë about the 🏠 at 10"
    const oddSources = [{ seq: 2, messageId, text: `🇵🇹 ${odd}`, sentAt }]
    const [proposed] = proposedReminders([{ seq: 2, quote: odd, due: "2026-03-26T10:00" }], oddSources, "UTC")
    expect(proposed).toEqual({
      _tag: "Schedule",
      seq: 2,
      reminderId: reminderIdOf(messageId, 5, 5 + odd.length),
      messageId,
      quote: odd,
      start: 5,
      end: 5 + odd.length,
      dueAt: DateTime.unsafeMake(Date.parse("2026-03-26T10:00:00Z")),
      local: "2026-03-26T10:00",
      resolution: "exact"
    })
    expect(`🇵🇹 ${odd}`.slice(5, 5 + odd.length)).toBe(odd)
  })
})

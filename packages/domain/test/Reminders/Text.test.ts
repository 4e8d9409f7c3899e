/** What the bot says about reminders, whole. */
import { DateTime } from "effect"
import { describe, expect, it } from "vitest"
import { MessageId, ReminderId } from "../../src/Ids.js"
import {
  askTimeButtons,
  askTimeText,
  deliveryText,
  pageText,
  parseReminderData,
  reminderButtons,
  replannedText,
  untakenText,
  upcomingText
} from "../../src/Reminders/Text.js"

describe("reminder texts", () => {
  it("delivers the quote whole with its message, shortened around the quote only when long", () => {
    expect(deliveryText({ quote: "call Ana", messageText: "Please call Ana about the flat.", start: 7, dueLocal: "2026-03-30T09:00", zone: "Europe/Lisbon", late: false }))
      .toBe("Reminder: call Ana\n\nFrom your message: Please call Ana about the flat.\n\nDue 30 March 2026, 09:00 (Europe/Lisbon).")
    const long = `${"a".repeat(200)}call Ana${"b".repeat(200)}`
    expect(deliveryText({ quote: "call Ana", messageText: long, start: 200, dueLocal: "2026-03-30T09:00", zone: "Europe/Lisbon", late: true }))
      .toBe(`Reminder: call Ana\n\nFrom your message: …${"a".repeat(120)}call Ana${"b".repeat(120)}…\n\nDue at 30 March 2026, 09:00 (Europe/Lisbon), sent late.`)
  })

  it("shows the start of the note the words are filed in, and the link to them marked there", () => {
    const base = { quote: "call Ana", messageText: "Please call Ana about the flat.", start: 7, dueLocal: "2026-03-30T09:00", zone: "Europe/Lisbon", late: false }
    const body = `Ana moves in May. ${"x".repeat(200)}`
    expect(deliveryText({ ...base, note: { about: "Ana", body }, link: "https://v.example/notes/n1?mark=m%3A7-15" })).toBe(
      "Reminder: call Ana\n\nFrom your message: Please call Ana about the flat.\n\n" +
        `In your note about Ana: Ana moves in May. ${"x".repeat(141)}…\nOpen: https://v.example/notes/n1?mark=m%3A7-15\n\nDue 30 March 2026, 09:00 (Europe/Lisbon).`
    )
    expect(deliveryText({ ...base, note: { about: null, body: "Please call Ana about the flat." }, link: null })).toBe(
      "Reminder: call Ana\n\nFrom your message: Please call Ana about the flat.\n\nIn your own notes: Please call Ana about the flat.\n\nDue 30 March 2026, 09:00 (Europe/Lisbon)."
    )
    expect(reminderButtons("rabc", "https://v.example/n").at(-1)).toEqual({ label: "Open", data: "r:open:rabc", url: "https://v.example/n" })
  })

  it("says what a plan's reminders came to when they were not all set", () => {
    const at = DateTime.unsafeMake(0)
    const messageId = MessageId.make("m")
    const reminderId = ReminderId.make("r1")
    expect(untakenText([
      { _tag: "NotAQuote", seq: 3, quote: "x" },
      { _tag: "NotAQuote", seq: -1, quote: "" },
      { _tag: "AskWhen", seq: 1, reminderId, messageId, quote: "ping me", start: 0, end: 7, due: "soon", why: "unreadable" }
    ])).toBe("I could not tell what to remind you of in message 3.\nI could not tell what to remind you of in one of your messages.")
    expect(untakenText([{ _tag: "Schedule", seq: 1, reminderId, messageId, quote: "q", start: 0, end: 1, dueAt: at, local: "1970-01-01T00:00", resolution: "exact" }]))
      .toBeNull()
  })

  it("reads back the data of every button it writes, and nothing else", () => {
    expect(reminderButtons("rabc").map((b) => parseReminderData(b.data))).toEqual([
      { action: "done", reminderId: "rabc" },
      { action: "hour", reminderId: "rabc" },
      { action: "morning", reminderId: "rabc" }
    ])
    expect(askTimeButtons("rabc").map((b) => [b.label, parseReminderData(b.data)])).toEqual([
      ["Tomorrow 09:00", { action: "morning", reminderId: "rabc" }],
      ["Next Monday 09:00", { action: "monday", reminderId: "rabc" }],
      ["Pick a time on the page", { action: "page", reminderId: "rabc" }],
      ["No reminder", { action: "cancel", reminderId: "rabc" }]
    ])
    expect([parseReminderData("r:cancel:rabc"), parseReminderData("a:q1:0"), parseReminderData("r:done:x y"), parseReminderData("r:wipe:rabc")])
      .toEqual([{ action: "cancel", reminderId: "rabc" }, null, null, null])
  })

  it("asks when, in the sender's words whole, saying why the plan's time could not stand", () => {
    expect([askTimeText("ping me \"soon\"", "unreadable"), askTimeText("ping me", "passed"), askTimeText("ping me", "too-far")]).toEqual([
      "I could not tell when to remind you: \"ping me \"soon\"\"\nWhen should I remind you?",
      "The time I read for this reminder had already passed: \"ping me\"\nWhen should I remind you?",
      "The time I read for this reminder is more than five years away: \"ping me\"\nWhen should I remind you?"
    ])
    expect([pageText(null), pageText("https://v.example")]).toEqual([
      "Pick a time on the Reminders page: send /web for a sign-in link, then open Reminders.",
      "Pick a time on the Reminders page: https://v.example/reminders (send /web first if you are not signed in)."
    ])
  })

  it("tells what a promoted replay no longer sets, each in its words", () => {
    expect(replannedText(["call Ana"])).toBe(
      "After an update to how your messages are filed, this is no longer a reminder:\n“call Ana”\nAsk again in a message if you still want to be reminded."
    )
    expect(replannedText(["call Ana", "pay rent"])).toBe(
      "After an update to how your messages are filed, these are no longer reminders:\n“call Ana”\n“pay rent”\nAsk again in a message if you still want to be reminded."
    )
  })

  it("lists what is coming up, naming a reminder's zone only when it is not the sender's now", () => {
    expect(upcomingText([
      { quote: "ping me", dueLocal: "", zone: "Europe/Lisbon", status: "asking" },
      { quote: "call Ana", dueLocal: "2026-03-30T09:00", zone: "Europe/Lisbon", status: "scheduled" },
      { quote: "pay rent", dueLocal: "2026-04-01T08:00", zone: "UTC", status: "scheduled" }
    ], "Europe/Lisbon"))
      .toBe("Coming up (Europe/Lisbon):\n1. no time set yet: ping me\n2. 30 March 2026, 09:00: call Ana\n3. 1 April 2026, 08:00 (UTC): pay rent")
  })
})

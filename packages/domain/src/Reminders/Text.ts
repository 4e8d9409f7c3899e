/** What the bot says about reminders: the delivery, with the sender's own words whole, and the plan's reminders it could not take. */
import { readableReading } from "../ReadableTime.js"
import { cut } from "../ReplyText.js"
import type { ReminderStatus } from "./Events.js"
import type { ProposedReminder } from "./FromPlan.js"

/**
 * The buttons of a delivered reminder: their data names the action and the reminder (well under
 * Telegram's 64 bytes); with a link to its words in their note, an Open button that opens it.
 */
export const reminderButtons = (reminderId: string, link: string | null = null) => [
  { label: "Done", data: `r:done:${reminderId}` },
  { label: "Snooze 1 hour", data: `r:hour:${reminderId}` },
  { label: "Tomorrow 09:00", data: `r:morning:${reminderId}` },
  ...(link === null ? [] : [{ label: "Open", data: `r:open:${reminderId}`, url: link }])
]

/**
 * What a button does: done; an hour later; 09:00 tomorrow; 09:00 next Monday; cancel (for a
 * reminder whose time is asked, "no reminder"); or send the way to the page to pick a time.
 */
export type ReminderAction = "done" | "hour" | "morning" | "monday" | "cancel" | "page"

/** The buttons of the question asked when a plan's time for a reminder was not clear. */
export const askTimeButtons = (reminderId: string) => [
  { label: "Tomorrow 09:00", data: `r:morning:${reminderId}` },
  { label: "Next Monday 09:00", data: `r:monday:${reminderId}` },
  { label: "Pick a time on the page", data: `r:page:${reminderId}` },
  { label: "No reminder", data: `r:cancel:${reminderId}` }
]

/** Why a plan's time for a reminder could not stand, in the question's words. */
const unclear = {
  unreadable: "I could not tell when to remind you",
  passed: "The time I read for this reminder had already passed",
  "too-far": "The time I read for this reminder is more than five years away"
}

/** The question asked when a plan's time for a reminder was not clear: the sender's words whole. */
export const askTimeText = (quote: string, why: keyof typeof unclear): string => `${unclear[why]}: "${quote}"\nWhen should I remind you?`

/** The answer to "Pick a time on the page": where the page is. */
export const pageText = (publicUrl: string | null): string =>
  publicUrl === null
    ? "Pick a time on the Reminders page: send /web for a sign-in link, then open Reminders."
    : `Pick a time on the Reminders page: ${publicUrl}/reminders (send /web first if you are not signed in).`

/** Reads the data of a reminder's button, or null when it is not one. */
export const parseReminderData = (data: string): { readonly action: ReminderAction; readonly reminderId: string } | null => {
  const match = /^r:(done|hour|morning|monday|cancel|page):(r[0-9a-z]{1,40})$/.exec(data)
  return match === null ? null : { action: match[1] as ReminderAction, reminderId: match[2]! }
}

/** "9 January 2026, 09:00 (Europe/Lisbon)": a reminder's reading on its zone's clock, the zone named. */
export const clockText = (local: string, zone: string): string => `${readableReading(local)} (${zone})`

/** Where a reminder stands, as the pages say it. */
export const statusText: Record<ReminderStatus, string> = {
  asking: "waiting for your answer",
  scheduled: "coming up",
  held: "due, sent when you next write on WhatsApp",
  delivered: "sent, not marked done",
  done: "done",
  cancelled: "cancelled"
}

/** When a reminder is due, as the pages say it: on its own clock, or that its time is the user's to give. */
export const dueText = (r: { readonly status: string; readonly dueLocal: string; readonly zone: string }): string =>
  r.status === "asking" ? "no time set yet" : `due ${clockText(r.dueLocal, r.zone)}`

/** How much of the message around the quote the delivery shows, before and after. */
const context = 120

/** How much of the start of the note the delivery shows. */
const noteStart = 160

/**
 * The delivered reminder: the quote whole, then the message it came from (shortened around the
 * quote only when long), the start of the note it is filed in and a link to the quote marked in
 * it (when the pages have an address), and the time it was due (said to be late when it is).
 */
export const deliveryText = (reminder: {
  readonly quote: string
  readonly messageText: string
  readonly start: number
  readonly dueLocal: string
  readonly zone: string
  readonly late: boolean
  /** The note the quote's message is filed in: whom it is about (null: the user's own notes) and its text. */
  readonly note?: { readonly about: string | null; readonly body: string } | null
  readonly link?: string | null
}): string => {
  const before = reminder.messageText.slice(Math.max(0, reminder.start - context), reminder.start)
  const after = reminder.messageText.slice(reminder.start + reminder.quote.length, reminder.start + reminder.quote.length + context)
  const from = `${reminder.start > context ? "…" : ""}${before}${reminder.quote}${after}${
    reminder.start + reminder.quote.length + context < reminder.messageText.length ? "…" : ""
  }`
  const due = reminder.late ? `Due at ${clockText(reminder.dueLocal, reminder.zone)}, sent late.` : `Due ${clockText(reminder.dueLocal, reminder.zone)}.`
  const note = reminder.note === undefined || reminder.note === null
    ? []
    : [`${reminder.note.about === null ? "In your own notes" : `In your note about ${reminder.note.about}`}: ${cut(reminder.note.body, noteStart)}`]
  const link = reminder.link === undefined || reminder.link === null ? [] : [`Open: ${reminder.link}`]
  const where = [...note, ...link]
  return [`Reminder: ${reminder.quote}`, `From your message: ${from}`, ...(where.length === 0 ? [] : [where.join("\n")]), due].join("\n\n")
}

/**
 * What a plan's reminders came to that the sender must hear about in one reply: words not found.
 * Null when there are none (a time not clear is a question of its own, with buttons).
 */
export const untakenText = (proposals: ReadonlyArray<ProposedReminder>): string | null => {
  const lines = proposals.flatMap((p) =>
    p._tag === "NotAQuote"
      ? [p.seq >= 1 ? `I could not tell what to remind you of in message ${p.seq}.` : "I could not tell what to remind you of in one of your messages."]
      : []
  )
  return lines.length === 0 ? null : lines.join("\n")
}

/** What the user is told when a promoted replay's plans no longer ask for reminders they had not touched. */
export const replannedText = (quotes: ReadonlyArray<string>): string =>
  [
    quotes.length === 1
      ? "After an update to how your messages are filed, this is no longer a reminder:"
      : "After an update to how your messages are filed, these are no longer reminders:",
    ...quotes.map((q) => `“${q}”`),
    "Ask again in a message if you still want to be reminded."
  ].join("\n")

/** The answer to a button pressed on a reminder. */
export const actionText = (
  action: Exclude<ReminderAction, "page">,
  due: { readonly local: string; readonly zone: string } | null,
  asking = false
): string =>
  action === "done"
    ? "Marked done."
    : action === "cancel"
    ? asking ? "No reminder set." : "Cancelled."
    : asking
    ? `I will remind you at ${due === null ? "" : clockText(due.local, due.zone)}.`
    : `Snoozed until ${due === null ? "" : clockText(due.local, due.zone)}.`

/**
 * `/reminders`: those whose time is still to be given first, then the upcoming ones, soonest
 * first, each at the clock time it was set for (its zone named when it is not the sender's zone
 * now); or that there are none.
 */
export const upcomingText = (
  reminders: ReadonlyArray<{ readonly quote: string; readonly dueLocal: string; readonly zone: string; readonly status: ReminderStatus }>,
  zone: string
): string =>
  reminders.length === 0
    ? "No reminders coming up. Ask for one in a message (\"remind me on Friday\") and it is set when the session is filed."
    : [
      `Coming up (${zone}):`,
      ...reminders.map((r, i) =>
        `${i + 1}. ${r.status === "asking" ? "no time set yet" : `${readableReading(r.dueLocal)}${r.zone === zone ? "" : ` (${r.zone})`}`}: ${r.quote}`
      )
    ].join("\n")

/** A Cancel button for each listed reminder, numbered as the list is. */
export const cancelButtons = (reminders: ReadonlyArray<{ readonly reminderId: string }>) =>
  reminders.map((r, i) => ({ label: `Cancel ${i + 1}`, data: `r:cancel:${r.reminderId}` }))

/** `/tz` with no zone, or the zone set, or why not. */
export const zoneText = {
  current: (zone: string) => `Your time zone is ${zone}. To change it, send /tz and a zone name, such as /tz Europe/Lisbon.`,
  set: (zone: string) => `Your time zone is now ${zone}: reminders are set and sent on its clock.`,
  same: (zone: string) => `Your time zone is ${zone} already.`,
  unknown: (name: string, close: ReadonlyArray<string>) =>
    `I do not know the time zone "${name}". Close ones: ${close.join(", ")}. Send /tz and one of them.`
}

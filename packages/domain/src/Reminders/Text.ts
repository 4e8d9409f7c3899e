/** What the bot says about reminders: the delivery, with the sender's own words whole, and the plan's reminders it could not take. */
import type { ProposedReminder } from "./FromPlan.js"

/** The buttons of a delivered reminder: their data names the action and the reminder (well under Telegram's 64 bytes). */
export const reminderButtons = (reminderId: string) => [
  { label: "Done", data: `r:done:${reminderId}` },
  { label: "Snooze 1 hour", data: `r:hour:${reminderId}` },
  { label: "Tomorrow 09:00", data: `r:morning:${reminderId}` }
]

export type ReminderAction = "done" | "hour" | "morning"

/** Reads the data of a reminder's button, or null when it is not one. */
export const parseReminderData = (data: string): { readonly action: ReminderAction; readonly reminderId: string } | null => {
  const match = /^r:(done|hour|morning):(r[0-9a-z]{1,40})$/.exec(data)
  return match === null ? null : { action: match[1] as ReminderAction, reminderId: match[2]! }
}

const clock = (local: string) => local.replace("T", " ")

/** How much of the message around the quote the delivery shows, before and after. */
const context = 120

/**
 * The delivered reminder: the quote whole, then the message it came from (shortened around the
 * quote only when long), and, when it went out late, the time it was due.
 */
export const deliveryText = (reminder: {
  readonly quote: string
  readonly messageText: string
  readonly start: number
  readonly dueLocal: string
  readonly late: boolean
}): string => {
  const before = reminder.messageText.slice(Math.max(0, reminder.start - context), reminder.start)
  const after = reminder.messageText.slice(reminder.start + reminder.quote.length, reminder.start + reminder.quote.length + context)
  const from = `${reminder.start > context ? "…" : ""}${before}${reminder.quote}${after}${
    reminder.start + reminder.quote.length + context < reminder.messageText.length ? "…" : ""
  }`
  const due = reminder.late ? `Due at ${clock(reminder.dueLocal)}, sent late.` : `Due ${clock(reminder.dueLocal)}.`
  return `Reminder: ${reminder.quote}\n\nFrom your message: ${from}\n\n${due}`
}

/** What a plan's reminders came to that the sender must hear about: words not found, times not clear. Null when all were scheduled. */
export const untakenText = (proposals: ReadonlyArray<ProposedReminder>): string | null => {
  const lines = proposals.flatMap((p) =>
    p._tag === "NotAQuote"
      ? [`I could not tell what to remind you of in message ${p.seq}.`]
      : p._tag === "AskWhen"
      ? [`I could not tell when to remind you: "${p.quote}". Send it again with a day and a time.`]
      : []
  )
  return lines.length === 0 ? null : lines.join("\n")
}

/** The answer to a button pressed on a delivered reminder. */
export const actionText = (action: ReminderAction, dueLocal: string | null): string =>
  action === "done" ? "Marked done." : `Snoozed until ${clock(dueLocal ?? "")}.`

/**
 * What a plan's `reminders` propose, checked against the messages: the model judges which words
 * ask for a reminder and when; code keeps the words. A quote that is not exactly in its message
 * is no reminder (its words stay wherever the plan filed them, and the reply says so); a due time
 * that does not read as a clock time, has passed by the message's own time, or lies more than five
 * years ahead becomes a question. Nothing a plan proposes is dropped without a word.
 */
import { DateTime, Option, Schema } from "effect"
import { type MessageId, ReminderId } from "../Ids.js"
import { formatLocal, instantOf, parseLocal, type Resolution } from "./LocalTime.js"

/** One reminder of a plan: the contract's field names are fixed, like the rest of the plan's. */
export const PlanReminder = Schema.Struct({
  seq: Schema.Number.annotations({
    jsonSchema: { type: "integer" },
    description: "The seq of the message whose words ask for the reminder."
  }),
  quote: Schema.String.annotations({
    description:
      "The words that ask for the reminder, copied exactly, character for character, from that one message (usually also one of its note's directives)."
  }),
  due: Schema.String.annotations({
    description:
      "When to remind, as YYYY-MM-DDTHH:MM on the sender's clock in their time zone. Count from the message's own local time, not from now; with no hour in the words, use 09:00."
  })
}).annotations({ description: "A reminder the sender asked for in their own words." })
export type PlanReminder = typeof PlanReminder.Type

/** A message of the session as reminders need it: where the words are, and when it was sent. */
export interface ReminderSource {
  readonly seq: number
  readonly messageId: MessageId
  readonly text: string
  readonly sentAt: DateTime.Utc
}

/** How far ahead a reminder may be set. */
export const maxYearsAhead = 5

export type ProposedReminder =
  | {
    readonly _tag: "Schedule"
    readonly reminderId: ReminderId
    readonly messageId: MessageId
    readonly quote: string
    readonly start: number
    readonly end: number
    readonly dueAt: DateTime.Utc
    readonly local: string
    readonly resolution: Resolution
  }
  /** The quote is not in the message the plan named (or there is no such message, or no words). */
  | { readonly _tag: "NotAQuote"; readonly seq: number; readonly quote: string }
  /** The words are there, but when is not clear: a question to the user, with the words kept. */
  | {
    readonly _tag: "AskWhen"
    readonly reminderId: ReminderId
    readonly messageId: MessageId
    readonly quote: string
    readonly start: number
    readonly end: number
    readonly due: string
    readonly why: "unreadable" | "passed" | "too-far"
  }

/** The reminder a quote names: its message and its characters. */
export const reminderIdOf = (messageId: MessageId, start: number, end: number): ReminderId =>
  ReminderId.make(`${messageId}#${start}-${end}`)

const proposal = (reminder: PlanReminder, sources: ReadonlyMap<number, ReminderSource>, zone: string): ProposedReminder => {
  const source = sources.get(reminder.seq)
  // The first place the words stand in the message: a quote is words, not a position.
  const start = source === undefined || reminder.quote === "" ? -1 : source.text.indexOf(reminder.quote)
  if (source === undefined || start < 0) return { _tag: "NotAQuote", seq: reminder.seq, quote: reminder.quote }
  const end = start + reminder.quote.length
  const words = { reminderId: reminderIdOf(source.messageId, start, end), messageId: source.messageId, quote: reminder.quote, start, end }
  const local = parseLocal(reminder.due)
  if (Option.isNone(local)) return { _tag: "AskWhen", ...words, due: reminder.due, why: "unreadable" }
  const { epochMillis, resolution } = instantOf(zone, local.value)
  const dueAt = DateTime.unsafeMake(epochMillis)
  if (!DateTime.greaterThan(dueAt, source.sentAt)) return { _tag: "AskWhen", ...words, due: reminder.due, why: "passed" }
  if (DateTime.greaterThan(dueAt, DateTime.add(source.sentAt, { years: maxYearsAhead }))) {
    return { _tag: "AskWhen", ...words, due: reminder.due, why: "too-far" }
  }
  return { _tag: "Schedule", ...words, dueAt, local: formatLocal(local.value), resolution }
}

/**
 * Each of the plan's reminders, in the plan's order, as a reminder to schedule, a quote that is
 * not one, or a question about when. Two proposals of the same words of the same message are one
 * reminder (the first proposal's time stands).
 */
export const proposedReminders = (
  reminders: ReadonlyArray<PlanReminder>,
  sources: ReadonlyArray<ReminderSource>,
  zone: string
): ReadonlyArray<ProposedReminder> => {
  const bySeq = new Map(sources.map((source) => [source.seq, source]))
  const seen = new Set<string>()
  return reminders.map((reminder) => proposal(reminder, bySeq, zone)).filter((proposed) => {
    if (proposed._tag === "NotAQuote") return true
    if (seen.has(proposed.reminderId)) return false
    seen.add(proposed.reminderId)
    return true
  })
}

/**
 * What a plan's `reminders` propose, checked against the messages: the model judges which words
 * ask for a reminder and when; code keeps the words. A quote that is not exactly in its message
 * is no reminder (its words stay wherever the plan filed them, and the reply says so); a due time
 * that does not read as a clock time, has passed by the message's own time, or lies more than five
 * years ahead becomes a question. Nothing a plan proposes is dropped without a word.
 */
import { DateTime, Option, Schema } from "effect"
import { type MessageId, ReminderId } from "../Ids.js"
import { PlanReminder } from "../Plan.js"
import { formatLocal, instantOf, parseLocal, type Resolution } from "./LocalTime.js"

/** A message of the session as reminders need it: where the words are, and when it was sent. */
export interface ReminderSource {
  readonly seq: number
  readonly messageId: MessageId
  readonly text: string
  readonly sentAt: DateTime.Utc
}

/** How far ahead a reminder may be set. */
export const maxYearsAhead = 5

/** The words of a message a reminder stands on: the same in a reminder set and in a question about when. */
export interface QuotedWords {
  readonly seq: number
  readonly reminderId: ReminderId
  readonly messageId: MessageId
  readonly quote: string
  readonly start: number
  readonly end: number
}

export type ProposedReminder =
  | QuotedWords & {
    readonly _tag: "Schedule"
    readonly dueAt: DateTime.Utc
    readonly local: string
    readonly resolution: Resolution
  }
  /** The quote is not in the message the plan named (or there is no such message, or no words). */
  | { readonly _tag: "NotAQuote"; readonly seq: number; readonly quote: string }
  /** The words are there, but when is not clear: a question to the user, with the words kept. */
  | QuotedWords & {
    readonly _tag: "AskWhen"
    readonly due: string
    readonly why: "unreadable" | "passed" | "too-far"
  }

/** 53 bits of a string (cyrb53): two seeds give an id short enough for a button's data. */
const hash53 = (text: string, seed: number): number => {
  let h1 = 0xdeadbeef ^ seed
  let h2 = 0x41c6ce57 ^ seed
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ code, 2654435761)
    h2 = Math.imul(h2 ^ code, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return 4294967296 * (2097151 & h2) + (h1 >>> 0)
}

/**
 * The reminder a quote names, from its message and its characters: the same words of the same
 * message name the same reminder in every plan. Short (22 characters), so a button's data
 * (Telegram allows 64 bytes) can carry it.
 */
export const reminderIdOf = (messageId: MessageId, start: number, end: number): ReminderId => {
  const key = `${messageId}#${start}-${end}`
  return ReminderId.make(`r${hash53(key, 1).toString(36).padStart(11, "0")}${hash53(key, 2).toString(36).padStart(10, "0")}`.slice(0, 22))
}

const proposal = (reminder: PlanReminder, sources: ReadonlyMap<number, ReminderSource>, zone: string): ProposedReminder => {
  const source = sources.get(reminder.seq)
  // The first place the words stand in the message: a quote is words, not a position.
  const start = source === undefined || reminder.quote === "" ? -1 : source.text.indexOf(reminder.quote)
  if (source === undefined || start < 0) return { _tag: "NotAQuote", seq: reminder.seq, quote: reminder.quote }
  const end = start + reminder.quote.length
  const words: QuotedWords = { seq: reminder.seq, reminderId: reminderIdOf(source.messageId, start, end), messageId: source.messageId, quote: reminder.quote, start, end }
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

/** A plan's reminders as the model sent them (a plan as recorded, decoded or not); an entry that is not one reads as words not found. */
export const remindersOf = (plan: unknown): ReadonlyArray<PlanReminder> => {
  const listed = typeof plan === "object" && plan !== null ? (plan as { readonly reminders?: unknown }).reminders : undefined
  if (!Array.isArray(listed)) return []
  return listed.map((entry: unknown) =>
    Option.getOrElse(Schema.decodeUnknownOption(PlanReminder)(entry), () => ({ seq: -1, quote: "", due: "" }))
  )
}

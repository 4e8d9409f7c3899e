/** Reminder events in the shape the reminder decider records them, for projection and query tests. */
import type { Event } from "@verbatim/domain/Events"
import { MessageId, NoteId, PlanId, ReminderId, SessionId } from "@verbatim/domain/Ids"
import { reminderStream, zoneStream as userZoneStream } from "@verbatim/domain/Streams"
import { at, user } from "./Given.js"

/** The stream of reminder `reminderId`. */
export const stream = (reminderId: string): string => reminderStream(ReminderId.make(reminderId))

/** When a reminder falls due: `seconds` after the fixed instant of `at`, read on a UTC clock. */
export const due = (seconds: number) => {
  const dueAt = at(seconds)
  return { dueAt, zone: "UTC", local: new Date(dueAt.epochMillis).toISOString().slice(0, 16) }
}

interface WordsOptions {
  readonly start?: number
  readonly planId?: string
  readonly noteId?: string | null
}

/** The words `quote` at `start` of message `seq` of session `sessionId`, as reminder `reminderId` holds them. */
const words = (reminderId: string, sessionId: string, seq: number, quote: string, options: WordsOptions) => ({
  reminderId: ReminderId.make(reminderId),
  user,
  sessionId: SessionId.make(sessionId),
  planId: PlanId.make(options.planId ?? `plan-${sessionId}`),
  messageId: MessageId.make(`${sessionId}/${seq}`),
  quote,
  start: options.start ?? 0,
  end: (options.start ?? 0) + quote.length,
  noteId: options.noteId === undefined || options.noteId === null ? null : NoteId.make(options.noteId)
})

/** Reminder `reminderId` scheduled from words `start`…`end` of message `seq` of session `sessionId`. */
export const reminderScheduled = (
  reminderId: string,
  sessionId: string,
  seq: number,
  quote: string,
  options: WordsOptions & { readonly dueIn?: number } = {}
): Event => ({ _tag: "ReminderScheduled", ...words(reminderId, sessionId, seq, quote, options), due: due(options.dueIn ?? 86_400) })

/** Reminder `reminderId`'s time asked of the user: the words of message `seq`, the plan's time `proposed` not clear. */
export const reminderTimeAsked = (
  reminderId: string,
  sessionId: string,
  seq: number,
  quote: string,
  options: WordsOptions & { readonly proposed?: string; readonly seconds?: number } = {}
): Event => ({
  _tag: "ReminderTimeAsked",
  ...words(reminderId, sessionId, seq, quote, options),
  zone: "UTC",
  proposed: options.proposed ?? "someday",
  why: "unreadable",
  askedAt: at(options.seconds ?? 0)
})

export const reminderDelivered = (reminderId: string, seconds: number, late = false): Event => ({
  _tag: "ReminderDelivered",
  reminderId: ReminderId.make(reminderId),
  deliveredAt: at(seconds),
  late
})

export const reminderHeld = (reminderId: string, seconds: number): Event => ({
  _tag: "ReminderHeld",
  reminderId: ReminderId.make(reminderId),
  heldAt: at(seconds),
  reason: "whatsapp-window"
})

export const reminderDone = (reminderId: string, seconds: number): Event => ({ _tag: "ReminderDone", reminderId: ReminderId.make(reminderId), doneAt: at(seconds) })

export const reminderSnoozed = (reminderId: string, seconds: number, dueIn: number): Event => ({
  _tag: "ReminderSnoozed",
  reminderId: ReminderId.make(reminderId),
  snoozedAt: at(seconds),
  due: due(dueIn)
})

export const reminderCancelled = (reminderId: string, seconds: number, reason: "user" | "quote-edited-away" | "replanned" = "user"): Event => ({
  _tag: "ReminderCancelled",
  reminderId: ReminderId.make(reminderId),
  cancelledAt: at(seconds),
  reason
})

/** The stream of the fixture user's time zone. */
export const zoneStream = userZoneStream(user)

export const timeZoneSet = (zone: string, seconds: number): Event => ({ _tag: "TimeZoneSet", user, zone, setAt: at(seconds) })

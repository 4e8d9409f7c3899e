/**
 * The events of one reminder's life, in its own stream (`reminder-<id>`): scheduled from the
 * words of a message, then delivered, done, snoozed, rescheduled or cancelled. A due time is
 * kept three ways: the instant it falls due, the zone, and the reading of that zone's clock it
 * was set for, so the reminder can say "due at 09:00" in the words it was asked for.
 */
import { Schema } from "effect"
import { MessageId, NoteId, PlanId, ReminderId, SessionId, UserId } from "../Ids.js"

/**
 * Where a reminder stands, as its events leave it; `asking`: its words are there, its time is the
 * user's to give; `held`: due, and waiting for the user to write (WhatsApp's 24-hour window).
 */
export const ReminderStatus = Schema.Literal("asking", "scheduled", "held", "delivered", "done", "cancelled")
export type ReminderStatus = typeof ReminderStatus.Type

/** When a reminder falls due: the instant, the zone, and the clock reading (`YYYY-MM-DDTHH:MM`). */
export const Due = Schema.Struct({
  dueAt: Schema.DateTimeUtc,
  zone: Schema.String,
  local: Schema.String
})
export type Due = typeof Due.Type

/** The words a reminder stands on, and where they are: the same in a reminder set and in one whose time is asked. */
const reminderWords = {
  reminderId: ReminderId,
  user: UserId,
  sessionId: SessionId,
  planId: PlanId,
  messageId: MessageId,
  /** The words that asked for the reminder, exactly as they are in the message at `start`…`end` (UTF-16 offsets). */
  quote: Schema.String,
  start: Schema.Int,
  end: Schema.Int,
  /** The note the quote's message is filed in, when it is filed in one. */
  noteId: Schema.NullOr(NoteId)
}

export const ReminderScheduled = Schema.TaggedStruct("ReminderScheduled", { ...reminderWords, due: Due })

/**
 * The words of a message ask for a reminder, but when is not clear (the plan's time did not read
 * as a clock time, had passed by the message's own time, or lay more than five years ahead): the
 * user is asked, and the reminder waits for their answer with no due time. The answer is a
 * `ReminderRescheduled` (a time) or a `ReminderCancelled` (no reminder).
 */
export const ReminderTimeAsked = Schema.TaggedStruct("ReminderTimeAsked", {
  ...reminderWords,
  /** The zone the answer's time is read in. */
  zone: Schema.String,
  /** The time the plan gave, as it gave it, and why it could not stand. */
  proposed: Schema.String,
  why: Schema.Literal("unreadable", "passed", "too-far"),
  askedAt: Schema.DateTimeUtc
})

export const ReminderDelivered = Schema.TaggedStruct("ReminderDelivered", {
  reminderId: ReminderId,
  deliveredAt: Schema.DateTimeUtc,
  /** Delivered well after it fell due (the service was down at the time): the message says so. */
  late: Schema.Boolean
})

/**
 * Due, but not sent: WhatsApp takes no free-form message more than 24 hours after the user last
 * wrote, and no template is configured. Delivered when the user next writes.
 */
export const ReminderHeld = Schema.TaggedStruct("ReminderHeld", {
  reminderId: ReminderId,
  heldAt: Schema.DateTimeUtc,
  reason: Schema.Literal("whatsapp-window")
})

export const ReminderDone = Schema.TaggedStruct("ReminderDone", {
  reminderId: ReminderId,
  doneAt: Schema.DateTimeUtc
})

/** Put off from a delivery (an hour, or tomorrow morning): due again at `due`. */
export const ReminderSnoozed = Schema.TaggedStruct("ReminderSnoozed", {
  reminderId: ReminderId,
  snoozedAt: Schema.DateTimeUtc,
  due: Due
})

/** Given a new due time by its user (on the page or through the API). */
export const ReminderRescheduled = Schema.TaggedStruct("ReminderRescheduled", {
  reminderId: ReminderId,
  rescheduledAt: Schema.DateTimeUtc,
  due: Due
})

export const ReminderCancelled = Schema.TaggedStruct("ReminderCancelled", {
  reminderId: ReminderId,
  cancelledAt: Schema.DateTimeUtc,
  /**
   * By its user; because an edit of the message took the quote away; or because a promoted
   * replay's plans no longer ask for it (only ever one the user had not acted on).
   */
  reason: Schema.Literal("user", "quote-edited-away", "replanned", "forgotten")
})

/** How one reminder a plan proposed ended: scheduled, not the sender's words, or a time to ask about. */
export const TakenReminder = Schema.Struct({
  seq: Schema.Finite,
  quote: Schema.String,
  outcome: Schema.Literal("scheduled", "not-a-quote", "ask-when"),
  reminderId: Schema.NullOr(ReminderId),
  /** Why no time was clear (`unreadable`, `passed`, `too-far`), with the time the plan gave. */
  detail: Schema.NullOr(Schema.String)
})

/**
 * A plan's reminders were taken, each to exactly one outcome (its own stream, `plan-reminders-<plan>`,
 * written once): the accounting of every reminder a plan proposed.
 */
export const RemindersTaken = Schema.TaggedStruct("RemindersTaken", {
  planId: PlanId,
  sessionId: SessionId,
  user: UserId,
  reminders: Schema.Array(TakenReminder)
})

/** A user set their time zone (`/tz Europe/Lisbon`), in their own stream (`zone-<user>`). */
export const TimeZoneSet = Schema.TaggedStruct("TimeZoneSet", {
  user: UserId,
  zone: Schema.String,
  setAt: Schema.DateTimeUtc
})

/** Every event of a reminder's stream. */
export const ReminderEvent = Schema.Union(
  ReminderScheduled,
  ReminderTimeAsked,
  ReminderHeld,
  ReminderDelivered,
  ReminderDone,
  ReminderSnoozed,
  ReminderRescheduled,
  ReminderCancelled
)
export type ReminderEvent = typeof ReminderEvent.Type

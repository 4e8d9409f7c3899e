/**
 * What a user's handling of a reminder says about the plan that set it: one they marked done
 * had the right words and, unless they gave it another time themselves, the right time; one they
 * cancelled straight after it was set, asked about or delivered was not wanted at all. Anything
 * else (snoozed, left alone, cancelled later) says nothing either way.
 */
import { DateTime, Duration } from "effect"
import type { ReminderEvent } from "../Reminders/Events.js"

/** How soon a cancel by the user counts as refusing the reminder rather than being done with it. */
export const refusedWithin = Duration.minutes(10)

/** The user's word on one reminder. `local`: the time they kept (null: none was ever set). */
export type ReminderLabel =
  | { readonly _tag: "Kept"; readonly local: string | null }
  | { readonly _tag: "Refused" }

/** One event of a reminder's stream with when it was recorded (a `ReminderScheduled` carries no time of its own). */
export interface TimedReminderEvent {
  readonly event: ReminderEvent
  readonly recordedAt: DateTime.Utc
}

/** The label a reminder's stream gives it, if any. */
export const reminderLabel = (events: ReadonlyArray<TimedReminderEvent>): ReminderLabel | null => {
  let local: string | null = null
  let shownAt: DateTime.Utc | null = null
  for (const { event, recordedAt } of events) {
    switch (event._tag) {
      case "ReminderScheduled":
        local = event.due.local
        shownAt = recordedAt
        break
      case "ReminderTimeAsked":
        shownAt = event.askedAt
        break
      case "ReminderDelivered":
        shownAt = event.deliveredAt
        break
      case "ReminderRescheduled":
        // The user's own time replaces the plan's; a snooze only puts the same reminder off.
        local = event.due.local
        break
      case "ReminderDone":
        return { _tag: "Kept", local }
      case "ReminderCancelled": {
        const straightAway = shownAt !== null && DateTime.distance(shownAt, event.cancelledAt) <= Duration.toMillis(refusedWithin)
        return event.reason === "user" && straightAway ? { _tag: "Refused" } : null
      }
    }
  }
  return null
}

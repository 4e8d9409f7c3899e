/**
 * The times a button gives a reminder, on the reminder's own clock: an hour from now, 09:00
 * tomorrow, 09:00 next Monday (a week on, when today is a Monday). A morning that does not exist
 * on that day's clock (a daylight-saving gap at 09:00) is resolved as `LocalTime` resolves every
 * reading.
 */
import { DateTime } from "effect"
import type { Due } from "./Events.js"
import { formatLocal, instantOf, localAt, type LocalDateTime } from "./LocalTime.js"

/** 09:00 on the day `days(today)` after today on the clock of `zone`. */
const morningAfter = (days: (today: LocalDateTime) => number, now: DateTime.Utc, zone: string): Due => {
  const today = localAt(zone, DateTime.toEpochMillis(now))
  const day = localAt("UTC", Date.UTC(today.year, today.month - 1, today.day + days(today), 9, 0))
  return { dueAt: DateTime.unsafeMake(instantOf(zone, day).epochMillis), zone, local: formatLocal(day) }
}

/** Days from a date to the Monday after it (a week on a Monday). */
const toNextMonday = (d: LocalDateTime) => (8 - new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay()) % 7 || 7

/** When a button puts the reminder: an hour from now, or 09:00 tomorrow or next Monday, in `zone`. */
export const dueAfter = (choice: "hour" | "morning" | "monday", now: DateTime.Utc, zone: string): Due => {
  if (choice === "morning") return morningAfter(() => 1, now, zone)
  if (choice === "monday") return morningAfter(toNextMonday, now, zone)
  const dueAt = DateTime.add(now, { hours: 1 })
  return { dueAt, zone, local: formatLocal(localAt(zone, DateTime.toEpochMillis(dueAt))) }
}

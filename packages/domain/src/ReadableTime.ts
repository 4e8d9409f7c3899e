/**
 * Moments as a person reads them: on the clock of their time zone, with the zone named, so a page,
 * a reply and an export never show a UTC time a reader would take for their own.
 */
import { DateTime } from "effect"

const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

const partsIn = (at: DateTime.Utc, zone: string) => DateTime.toParts(DateTime.unsafeMakeZoned(at, { timeZone: zone }))

const two = (n: number) => String(n).padStart(2, "0")

/** "6 December 2026": the day of a moment on a calendar in `zone`. */
export const localDay = (at: DateTime.Utc, zone: string): string => {
  const p = partsIn(at, zone)
  return `${p.day} ${months[p.month - 1]} ${p.year}`
}

/** "6 December 2026, 14:05 (Europe/Lisbon)": a moment as read on a clock in `zone`. */
export const localTime = (at: DateTime.Utc, zone: string): string => {
  const p = partsIn(at, zone)
  return `${p.day} ${months[p.month - 1]} ${p.year}, ${two(p.hours)}:${two(p.minutes)} (${zone})`
}

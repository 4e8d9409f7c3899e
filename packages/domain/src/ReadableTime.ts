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

const reading = (year: number, month: number, day: number, hours: number, minutes: number) =>
  `${day} ${months[month - 1]} ${year}, ${two(hours)}:${two(minutes)}`

/** "6 December 2026, 14:05 (Europe/Lisbon)": a moment as read on a clock in `zone`. */
export const localTime = (at: DateTime.Utc, zone: string): string => {
  const p = partsIn(at, zone)
  return `${reading(p.year, p.month, p.day, p.hours, p.minutes)} (${zone})`
}

/** "9 January 2026, 09:00": a wall-clock reading `YYYY-MM-DDTHH:MM` (a reminder's), as it reads; another text as it is. */
export const readableReading = (local: string): string => {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local)
  if (match === null) return local
  const [year, month, day, hours, minutes] = match.slice(1).map(Number) as [number, number, number, number, number]
  return month >= 1 && month <= 12 ? reading(year, month, day, hours, minutes) : local
}

/**
 * Local date-times in IANA time zones, for reminders: the model writes a due time as the sender
 * reads a clock (`2026-03-29T09:00`), and a reminder keeps that reading across daylight-saving
 * changes. Offsets come from `Intl`, so the zone rules are the runtime's own tz database.
 *
 * A reading that does not exist (the hour skipped when clocks go forward) or exists twice (the
 * hour repeated when they go back) is resolved one way, the one calendars and `Temporal` call
 * "compatible": a skipped reading moves forward by the length of the gap (01:30 on the morning
 * Lisbon jumps from 01:00 to 02:00 is 02:30), and a repeated one is the earlier of its two
 * instants (01:30 on the morning Lisbon falls back is 01:30 summer time).
 */
import { Option } from "effect"

/** A wall-clock reading to the minute, with no zone. */
export interface LocalDateTime {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly hour: number
  readonly minute: number
}

/** How a reading became an instant: it existed once, fell in a gap, or fell in an overlap. */
export type Resolution = "exact" | "gap" | "overlap"

const minuteMs = 60_000
const dayMs = 86_400_000

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

/** `YYYY-MM-DDTHH:MM`, the form of the plan's `due` and of what a reminder shows. */
export const formatLocal = (local: LocalDateTime): string =>
  `${pad(local.year, 4)}-${pad(local.month)}-${pad(local.day)}T${pad(local.hour)}:${pad(local.minute)}`

const localPattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/

/** The reading as if it were UTC, in milliseconds: the arithmetic of wall clocks. */
const wallMillis = (local: LocalDateTime): number => Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute)

const fromWallMillis = (millis: number): LocalDateTime => {
  const date = new Date(millis)
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes()
  }
}

/** A `YYYY-MM-DDTHH:MM` reading of a real calendar day and time, or none (`2026-02-30T09:00` is none). */
export const parseLocal = (text: string): Option.Option<LocalDateTime> => {
  const match = localPattern.exec(text)
  if (match === null) return Option.none()
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number]
  const local = { year, month, day, hour, minute }
  if (year < 1 || hour > 23 || minute > 59) return Option.none()
  // A day past the month's end rolls over in `Date.UTC`: a reading that comes back changed was not a date.
  return formatLocal(fromWallMillis(wallMillis(local))) === text ? Option.some(local) : Option.none()
}

const formats = new Map<string, Intl.DateTimeFormat>()

const formatFor = (zone: string): Intl.DateTimeFormat => {
  let format = formats.get(zone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric"
    })
    formats.set(zone, format)
  }
  return format
}

/** The wall-clock reading in `zone` at an instant (to the second, as UTC-like milliseconds). */
const wallAt = (zone: string, epochMillis: number): number => {
  const parts: Record<string, number> = {}
  for (const part of formatFor(zone).formatToParts(epochMillis)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value)
  }
  return Date.UTC(parts["year"]!, parts["month"]! - 1, parts["day"]!, parts["hour"]!, parts["minute"]!, parts["second"]!)
}

/** The zone's offset from UTC at an instant, in minutes (Lisbon in summer: 60). */
export const offsetMinutes = (zone: string, epochMillis: number): number => {
  const whole = Math.floor(epochMillis / 1000) * 1000
  return Math.round((wallAt(zone, whole) - whole) / minuteMs)
}

/** The reading of the clock in `zone` at an instant, to the minute. */
export const localAt = (zone: string, epochMillis: number): LocalDateTime =>
  fromWallMillis(epochMillis + offsetMinutes(zone, epochMillis) * minuteMs)

/**
 * The instant at which the clock in `zone` reads `local`, resolved as the module says when the
 * reading is skipped or repeated. Offsets are read a day either side, which holds wherever a
 * zone changes its offset at most once in two days (every zone of the tz database today).
 */
export const instantOf = (zone: string, local: LocalDateTime): { readonly epochMillis: number; readonly resolution: Resolution } => {
  const wall = wallMillis(local)
  const before = offsetMinutes(zone, wall - dayMs)
  const after = offsetMinutes(zone, wall + dayMs)
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset * minuteMs)
    .filter((instant) => wallMillis(localAt(zone, instant)) === wall)
    .sort((a, b) => a - b)
  if (candidates.length === 0) return { epochMillis: wall - before * minuteMs, resolution: "gap" }
  return { epochMillis: candidates[0]!, resolution: candidates.length > 1 ? "overlap" : "exact" }
}

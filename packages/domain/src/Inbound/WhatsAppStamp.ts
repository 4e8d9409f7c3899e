/**
 * The timestamp that starts a message line of a WhatsApp export, in the shapes the app writes
 * for its locales: day or month first (`31/12/2023`, `12/31/23`, `31.12.23`, `31-12-2023`,
 * `12. 3. 2024.`), year first (`2019-01-01`) or in the middle (`06/2018/13`), a comma, a space or
 * `klo` before the time, `.` or `:` in the time, seconds or not, a 12-hour clock (`PM`, `p.m.`,
 * `a. m.`) or not; then the frame that ends it: `] ` (iOS), ` - ` (Android), `: ` or a bare space
 * (locales that put no dash between the time and the sender). Also the stamp of a message copied
 * from the app, time first in brackets (`[12:01, 05/12/2026] `).
 */
import { DateTime, Option } from "effect"

/** Day before month (most locales) or month before day (US), for a date whose year is not first. */
export type DateOrder = "dmy" | "mdy"

/** A year-first date is year-month-day in every locale known; year-day-month only on the file's evidence. */
export type YearFirstOrder = "ymd" | "ydm"

/** How a line's stamp is framed; one export writes every line in one frame. */
export type Frame = "bracket" | "dash" | "colon" | "bare"

const space = "[\\s\\u202f\\u00a0]"
const field = "(\\d{1,4})"
const separator = `[/.-]${space}?`
const date = `(${field}${separator}${field}${separator}${field})\\.?`
const time = `(\\d{1,2})[:.](\\d{2})(?:[:.](\\d{2}))?(?:${space}?([AaPp])\\.?${space}?[Mm]\\.?)?`
const stamp = `${date},?${space}(?:klo${space})?${time}`
/** Most specific first: a dash line also reads as a bare one whose text starts with `- `. */
const frames: ReadonlyArray<readonly [Frame, RegExp]> = [
  ["bracket", new RegExp(`^\\[${stamp}\\]${space}(?:[-–]${space})?([\\s\\S]*)$`)],
  ["dash", new RegExp(`^${stamp}${space}[-–]${space}([\\s\\S]*)$`)],
  ["colon", new RegExp(`^${stamp}:${space}([\\s\\S]*)$`)],
  ["bare", new RegExp(`^${stamp}${space}([\\s\\S]*)$`)]
]
/** A copied message's stamp: time (groups 1-4), then date (5, fields 6-8), in brackets. */
const copied = new RegExp(`^\\[${time},${space}${date}\\]${space}`)

/** A line's timestamp fields as written, and the rest of the line. */
export interface Stamp {
  readonly frame: Frame
  /** Where the year is written. */
  readonly yearAt: "first" | "middle" | "last"
  /** `yearAt === "first"`. */
  readonly yearFirst: boolean
  /** The two fields beside the year in the order written, then the year. */
  readonly date: readonly [string, string, string]
  readonly time: readonly [hours: string, minutes: string, seconds: string | undefined, ampm: string | undefined]
  /** The date as written, for messages. */
  readonly dateText: string
  /** Everything before `rest`: the stamp and its frame. */
  readonly written: string
  readonly rest: string
}

/** Which field is the year: the one of four digits, else (two-digit years) the last; null for no date. */
const yearIndex = (fields: ReadonlyArray<string>): 0 | 1 | 2 | null => {
  const long = fields.flatMap((f, i) => (f.length === 4 ? [i] : []))
  if (long.length > 1 || fields.some((f) => f.length === 3)) return null
  if (long.length === 1) return long[0] as 0 | 1 | 2
  return fields[2]!.length === 2 ? 2 : null
}

/** The stamp a line starts with (marks WhatsApp puts before it ignored by the caller), or null. */
export const readStamp = (line: string): Stamp | null => {
  for (const [frame, pattern] of frames) {
    const match = pattern.exec(line)
    if (match === null) continue
    const m = match as unknown as ReadonlyArray<string | undefined>
    const fields = [m[2]!, m[3]!, m[4]!]
    const year = yearIndex(fields)
    if (year === null) return null
    const [first, second] = fields.filter((_, i) => i !== year) as [string, string]
    const rest = m[9]!
    const written = line.slice(0, line.length - rest.length)
    return {
      frame,
      yearAt: year === 0 ? "first" : year === 1 ? "middle" : "last",
      yearFirst: year === 0,
      date: [first, second, fields[year]!],
      time: [m[5]!, m[6]!, m[7], m[8]],
      dateText: m[1]!,
      written,
      rest
    }
  }
  return null
}

/**
 * The stamp WhatsApp writes before each message it copies to the clipboard, time first:
 * `[12:01, 05/12/2026] `, `[9:15 PM, 12/5/2026] `, `[21:15:42, 31.12.26] `. Returns what the stamp
 * takes of the line and the rest, or null when the line does not start with one.
 */
export const readCopiedStamp = (line: string): { readonly written: string; readonly rest: string } | null => {
  const match = copied.exec(line)
  if (match === null || yearIndex([match[6]!, match[7]!, match[8]!]) === null) return null
  return { written: match[0], rest: line.slice(match[0].length) }
}

/** dmy when a first field is over 12, mdy when a second one is, else dmy (most locales); year-first dates aside. */
export const guessOrder = (stamps: ReadonlyArray<Stamp>): DateOrder => {
  const dayMonth = stamps.filter((s) => !s.yearFirst)
  if (dayMonth.some((s) => Number(s.date[0]) > 12)) return "dmy"
  if (dayMonth.some((s) => Number(s.date[1]) > 12)) return "mdy"
  return "dmy"
}

/** ydm when a year-first date's second field is over 12 somewhere in the file, else ymd. */
export const guessYearFirstOrder = (stamps: ReadonlyArray<Stamp>): YearFirstOrder =>
  stamps.some((s) => s.yearFirst && Number(s.date[0]) > 12) ? "ydm" : "ymd"

/** A stamp's time of day as 24-hour hours, minutes and seconds, or undefined for one that does not exist. */
export const clockOf = (stamp: Stamp): readonly [number, number, number] | undefined => {
  const [h, min, sec, ampm] = stamp.time
  const hours = Number(h)
  const clock = [ampm === undefined ? hours : (hours % 12) + (ampm.toLowerCase() === "p" ? 12 : 0), Number(min), Number(sec ?? 0)] as const
  if ((ampm !== undefined && hours > 12) || clock[0] >= 24 || clock[1] >= 60 || clock[2] >= 60) return undefined
  return clock
}

/** The instant a stamp names, read in `zone` (UTC when none), or undefined for a day or time that does not exist. */
export const instantOf = (
  stamp: Stamp,
  order: DateOrder,
  zone: DateTime.TimeZone | undefined,
  yearFirstOrder: YearFirstOrder = "ymd"
): DateTime.Utc | undefined => {
  const [a, b, y] = stamp.date
  const clock = clockOf(stamp)
  if (clock === undefined) return undefined
  const dayFirst = stamp.yearFirst ? yearFirstOrder === "ydm" : order === "dmy"
  const day = Number(dayFirst ? a : b)
  const month = Number(dayFirst ? b : a)
  const year = Number(y.length === 2 ? `20${y}` : y)
  const wall = Date.UTC(year, month - 1, day, ...clock)
  const check = new Date(wall)
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return undefined
  if (zone === undefined) return DateTime.unsafeMake(wall)
  return Option.map(DateTime.makeZoned(wall, { timeZone: zone, adjustForTimeZone: true }), DateTime.toUtc).pipe(Option.getOrUndefined)
}

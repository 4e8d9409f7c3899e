/**
 * The timestamp that starts a message line of a WhatsApp export, in the shapes the app writes
 * for its locales: day or month first (`31/12/2023`, `12/31/23`, `31.12.23`, `31-12-2023`), year
 * first (`2019-01-01`), a comma, a space or `klo` before the time, `.` or `:` in the time,
 * seconds or not, a 12-hour clock (`PM`, `p.m.`, `a. m.`) or not.
 */
import { DateTime, Option } from "effect"

/** Day before month (most locales) or month before day (US); a year-first date is always y-m-d. */
export type DateOrder = "dmy" | "mdy"

const space = "[\\s\\u202f\\u00a0]"
const date = "(?:(\\d{4})[/.-](\\d{1,2})[/.-](\\d{1,2})|(\\d{1,2})[/.-](\\d{1,2})[/.-](\\d{2,4}))"
const time = `(\\d{1,2})[:.](\\d{2})(?:[:.](\\d{2}))?(?:${space}?([AaPp])\\.?${space}?[Mm]\\.?)?`
const stamp = `${date}(?:,?${space}klo${space}|,?${space})${time}`
const android = new RegExp(`^${stamp}${space}[-–]${space}([\\s\\S]*)$`)
const ios = new RegExp(`^\\[${stamp}\\]${space}(?:[-–]${space})?([\\s\\S]*)$`)

/** A line's timestamp fields as written, and the rest of the line. */
export interface Stamp {
  /** Year-first dates are unambiguous. */
  readonly yearFirst: boolean
  /** The first and second date fields of a day- or month-first date, then the year. */
  readonly date: readonly [string, string, string]
  readonly time: readonly [hours: string, minutes: string, seconds: string | undefined, ampm: string | undefined]
  readonly written: string
  readonly rest: string
}

/** The stamp a line starts with (marks WhatsApp puts before it ignored), or null. */
export const readStamp = (line: string): Stamp | null => {
  const match = android.exec(line) ?? ios.exec(line)
  if (match === null) return null
  const m = match as unknown as ReadonlyArray<string | undefined>
  const yearFirst = m[1] !== undefined
  const rest = m[11]!
  return {
    yearFirst,
    date: yearFirst ? [m[3]!, m[2]!, m[1]!] : [m[4]!, m[5]!, m[6]!],
    time: [m[7]!, m[8]!, m[9], m[10]],
    written: line.slice(0, line.length - rest.length),
    rest
  }
}

/** dmy when a first field is over 12, mdy when a second one is, else dmy (most locales). */
export const guessOrder = (stamps: ReadonlyArray<Stamp>): DateOrder => {
  const dayMonth = stamps.filter((s) => !s.yearFirst)
  if (dayMonth.some((s) => Number(s.date[0]) > 12)) return "dmy"
  if (dayMonth.some((s) => Number(s.date[1]) > 12)) return "mdy"
  return "dmy"
}

/** The instant a stamp names, read in `zone` (UTC when none), or undefined for a day or time that does not exist. */
export const instantOf = (stamp: Stamp, order: DateOrder, zone: DateTime.TimeZone | undefined): DateTime.Utc | undefined => {
  const [a, b, y] = stamp.date
  const [h, min, sec, ampm] = stamp.time
  const day = Number(stamp.yearFirst || order === "dmy" ? a : b)
  const month = Number(stamp.yearFirst || order === "dmy" ? b : a)
  const year = Number(y.length === 2 ? `20${y}` : y)
  let hours = Number(h)
  if (ampm !== undefined) hours = (hours % 12) + (ampm.toLowerCase() === "p" ? 12 : 0)
  const wall = Date.UTC(year, month - 1, day, hours, Number(min), Number(sec ?? 0))
  const check = new Date(wall)
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1 || hours >= 24 || Number(min) >= 60) return undefined
  if (zone === undefined) return DateTime.unsafeMake(wall)
  return Option.map(DateTime.makeZoned(wall, { timeZone: zone, adjustForTimeZone: true }), DateTime.toUtc).pipe(Option.getOrUndefined)
}

/** Provider timestamps: whole seconds since 1970, within the years a UTC ISO string can spell. */
import { DateTime, Schema } from "effect"

/** 9999-12-31T23:59:59Z: later instants format with an expanded year and break ISO ordering. */
export const maxUnixSeconds = 253_402_300_799

/** A timestamp as a JSON number (Telegram `date`, `edit_date`). */
export const UnixSeconds = Schema.Int.pipe(
  Schema.between(0, maxUnixSeconds, { message: () => `a whole number of seconds between 0 and ${maxUnixSeconds}` })
)

/**
 * Plain decimal digits, as providers write a timestamp. `Number()` alone would also read
 * "1e9", "0x10", " 1 ", "+1", "1.0" and "" (as 0), none of which a provider sends.
 */
export const DecimalDigits = Schema.String.pipe(
  Schema.pattern(/^[0-9]+$/, { message: (issue) => `unix seconds as plain decimal digits, actual ${JSON.stringify(issue.actual)}` })
)

/** A timestamp as a decimal string (WhatsApp `timestamp`, Telegram export `date_unixtime`). */
export const UnixSecondsFromString = Schema.compose(Schema.compose(DecimalDigits, Schema.NumberFromString), UnixSeconds)

/** The instant a decoded timestamp names. */
export const utcOf = (seconds: number): DateTime.Utc => DateTime.unsafeMake(seconds * 1000)

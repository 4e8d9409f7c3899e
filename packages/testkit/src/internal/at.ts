import { DateTime } from "effect"

/** A fixed instant plus `seconds`, so recorded times are exact. */
export const at = (seconds: number): DateTime.Utc => DateTime.unsafeMake(Date.UTC(2026, 0, 1) + seconds * 1000)

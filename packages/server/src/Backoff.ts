/** How long work that failed waits before it is tried again, for every job that retries (a reply's send, an attachment's fetch or reading). */
import { Duration } from "effect"

/** The wait after the `attempts`-th failure: 5 s, doubling, at most 10 minutes. */
export const backoff = (attempts: number): Duration.Duration =>
  Duration.min(Duration.seconds(5 * 2 ** Math.max(0, attempts - 1)), Duration.minutes(10))

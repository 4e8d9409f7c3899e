/**
 * Pacing sends to a provider's rate limits, by the generic cell rate algorithm: a limit is a rate
 * and a burst, and its state one number, the theoretical arrival time (TAT) of the next send. A
 * send may go once `TAT - (burst - 1) × interval` has come; it moves the TAT one interval on from
 * the later of itself and the TAT. The sender schedules each send against every limit it is under
 * (the provider's overall rate and the chat's) and waits for the latest; a provider checks a send
 * the same way (`admit`), so a send the sender scheduled is never refused. Pure.
 */

/** A rate limit: sends per second, sustained, and how many may go at once after a quiet spell. */
export interface Rate {
  readonly perSecond: number
  readonly burst: number
}

const interval = (rate: Rate) => 1000 / rate.perSecond

/** The earliest a send may go at or after `now` (epoch ms) under `rate`, given the limit's TAT (0 before any send). */
export const earliest = (tat: number, rate: Rate, now: number): number => Math.max(now, tat - (rate.burst - 1) * interval(rate))

/** The limit's TAT after a send at `at`. */
export const after = (tat: number, rate: Rate, at: number): number => Math.max(tat, at) + interval(rate)

/** A send scheduled against several limits at once: when it goes, and each limit's TAT after it. */
export const schedule = (limits: ReadonlyArray<{ readonly tat: number; readonly rate: Rate }>, now: number) => {
  const at = limits.reduce((latest, limit) => Math.max(latest, earliest(limit.tat, limit.rate, now)), now)
  return { at, tats: limits.map((limit) => after(limit.tat, limit.rate, at)) }
}

/**
 * A provider's check of a send at `at`: the limit's TAT after it, or, when it is over the limit,
 * how many milliseconds until it would not be.
 */
export const admit = (tat: number, rate: Rate, at: number): { readonly tat: number } | { readonly waitMs: number } => {
  const allowed = earliest(tat, rate, at)
  return allowed > at ? { waitMs: allowed - at } : { tat: after(tat, rate, at) }
}

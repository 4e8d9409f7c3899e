/** Provider integer ids (Telegram message, chat, user and update ids) as the keys they become. */
import { Schema } from "effect"

/**
 * A JSON number that names exactly one id: a safe integer, and not -0. A larger number is
 * rounded by `JSON.parse`, so two distinct ids could read as one key and the later message be
 * dropped as a redelivery; -0 prints as "0", another id's key.
 */
export const IntegerId = Schema.Number.pipe(
  Schema.filter((n) => Number.isSafeInteger(n) && !Object.is(n, -0), {
    message: () => `a whole number between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}, not -0`
  })
)

/**
 * Each user's time zone, as reminders and planning read it: the one they set (`/tz`), else
 * `VERBATIM_DEFAULT_TIMEZONE` (an IANA name, UTC when unset). A default `Intl` does not know stops
 * the start with the closest known names.
 */
import type { UserId } from "@verbatim/domain/Ids"
import { closeZones, zoneName } from "@verbatim/domain/Reminders/Zones"
import { ReminderBook } from "@verbatim/projections/ReminderBook"
import { Config, ConfigError, Context, Effect, Either, Layer, Option } from "effect"

/** The zone of `VERBATIM_DEFAULT_TIMEZONE`, spelled as `Intl` spells it. */
export const defaultZoneConfig: Config.Config<string> = Config.string("VERBATIM_DEFAULT_TIMEZONE").pipe(
  Config.withDefault("UTC"),
  Config.mapOrFail((name) => {
    const zone = zoneName(name)
    return zone === null
      ? Either.left(ConfigError.InvalidData([], `"${name}" is not an IANA time zone name; close ones: ${closeZones(name).join(", ")}`))
      : Either.right(zone)
  })
)

export class TimeZones extends Context.Tag("@verbatim/server/TimeZones")<TimeZones, {
  readonly zoneOf: (user: UserId) => Effect.Effect<string>
  /** The configured default, for whoever has no zone of their own (the operator). */
  readonly fallback: string
}>() {
  /** The zone a user set, else the configured default; a store that cannot say gives the default, with a warning. */
  static readonly layerConfig = Layer.effect(
    TimeZones,
    Effect.gen(function*() {
      const fallback = yield* defaultZoneConfig
      const book = yield* ReminderBook
      return {
        fallback,
        zoneOf: (user: UserId) =>
          book.zoneOf(user).pipe(
            Effect.map(Option.getOrElse(() => fallback)),
            Effect.catchAll((error) => Effect.as(Effect.logWarning("reading a user's time zone failed; using the default", error), fallback))
          )
      }
    })
  )

  static readonly layerZone = (zone: string) => Layer.succeed(TimeZones, { fallback: zone, zoneOf: () => Effect.succeed(zone) })
}

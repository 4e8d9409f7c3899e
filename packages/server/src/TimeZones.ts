/**
 * Each user's time zone, as reminders and planning read it: `VERBATIM_DEFAULT_TIMEZONE` (an IANA
 * name, UTC when unset) for every user. A name `Intl` does not know stops the start with the
 * closest known names.
 */
import type { UserId } from "@verbatim/domain/Ids"
import { closeZones, zoneName } from "@verbatim/domain/Reminders/Zones"
import { Config, ConfigError, Context, Effect, Either, Layer } from "effect"

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
}>() {
  static readonly layerConfig = Layer.effect(TimeZones, Effect.map(defaultZoneConfig, (zone) => TimeZones.of({ zoneOf: () => Effect.succeed(zone) })))

  static readonly layerZone = (zone: string) => Layer.succeed(TimeZones, TimeZones.of({ zoneOf: () => Effect.succeed(zone) }))
}

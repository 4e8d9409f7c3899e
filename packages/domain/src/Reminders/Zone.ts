/** A user's time zone: set to a zone `Intl` knows, by its canonical name; setting the zone it is already is no change. */
import { Data, type DateTime, Either } from "effect"
import type { Decider } from "../Decider.js"
import type { UserId } from "../Ids.js"
import { type Rejected, rejected } from "../Session/Commands.js"
import type { TimeZoneSet } from "./Events.js"
import { zoneName } from "./Zones.js"

export type ZoneCommand = Data.TaggedEnum<{ Set: { readonly user: UserId; readonly name: string; readonly now: DateTime.Utc } }>
export const ZoneCommand = Data.taggedEnum<ZoneCommand>()

type Set = typeof TimeZoneSet.Type

/** The zone set last, or null for none. */
export const zoneDecider: Decider<string | null, ZoneCommand, Set, Rejected> = {
  initialState: null,
  evolve: (_zone, event) => event.zone,
  decide: (current, command) => {
    const zone = zoneName(command.name)
    if (zone === null) return Either.left(rejected("invalid", `"${command.name}" is not a time zone`))
    if (zone === current) return Either.left(rejected("unchanged", `the time zone is ${zone} already`))
    return Either.right([{ _tag: "TimeZoneSet", user: command.user, zone, setAt: command.now }])
  }
}

/** The user zones projection; owns `user_zones`: the time zone each user set last. */
import type { Projection } from "./Projection.js"

export const UserZones: Projection<"TimeZoneSet"> = {
  name: "user zones",
  canHandle: ["TimeZoneSet"],
  wants(event, _position, keys) {
    keys.add("user_zones", "user_id", event.user)
  },
  evolve(batch, { event, position }) {
    const row = batch.get("user_zones", event.user)
    if (row) batch.update("user_zones", row, { zone: event.zone, position })
    else batch.put("user_zones", { user_id: event.user, zone: event.zone, position })
  }
}

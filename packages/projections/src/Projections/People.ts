/** The people projection; owns `people`: the people a user has added. */
import type { Projection } from "./Projection.js"

/** A row per person, recorded once. */
export const People: Projection<"PersonAdded"> = {
  name: "people",
  canHandle: ["PersonAdded"],
  wants(event, _position, keys) {
    keys.add("people", "person_id", event.personId)
  },
  evolve(batch, { event, position }) {
    if (!batch.has("people", event.personId)) {
      batch.put("people", { person_id: event.personId, user_id: event.user, name: event.name, position })
    }
  }
}

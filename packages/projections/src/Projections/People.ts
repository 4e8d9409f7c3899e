/**
 * The people projection; owns `people`: the people a user has added, renamed (the names they had
 * before, one a line, in `former_names`), and merged into another (`merged_into`, always a person
 * not merged away, so it is followed once).
 */
import type { Projection } from "./Projection.js"

export const People: Projection<"PersonAdded" | "PersonRenamed" | "PeopleMerged"> = {
  name: "people",
  canHandle: ["PersonAdded", "PersonRenamed", "PeopleMerged"],
  wants(event, _position, keys) {
    switch (event._tag) {
      case "PersonAdded":
      case "PersonRenamed":
        return keys.add("people", "person_id", event.personId)
      case "PeopleMerged":
        keys.add("people", "person_id", event.from)
        return keys.add("people", "merged_into", event.from)
    }
  },
  evolve(batch, { event, position }) {
    switch (event._tag) {
      case "PersonAdded":
        if (!batch.has("people", event.personId)) {
          batch.put("people", { person_id: event.personId, user_id: event.user, name: event.name, position, merged_into: null, former_names: null })
        }
        return
      case "PersonRenamed": {
        const person = batch.get("people", event.personId)
        if (person && person["name"] !== event.name) {
          const former = typeof person["former_names"] === "string" ? person["former_names"].split("\n") : []
          const names = [...former.filter((n) => n !== event.name && n !== person["name"]), String(person["name"])]
          batch.update("people", person, { name: event.name, former_names: names.join("\n") })
        }
        return
      }
      case "PeopleMerged": {
        // Whoever was merged into `from` before now belongs to `into` too.
        for (const row of [...batch.where("people", "merged_into", event.from), batch.get("people", event.from)]) {
          if (row) batch.update("people", row, { merged_into: event.into })
        }
        return
      }
    }
  }
}

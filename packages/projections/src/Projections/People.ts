/**
 * The people projection; owns `people`: the people a user has added, renamed (the names they had
 * before, one a line, in `former_names`), merged into another (`merged_into`, always a person not
 * merged away, so it is followed once; `merged_to`, whom the merge named) and unmerged again.
 */
import { absurd } from "effect"
import type { Projection } from "./Projection.js"
import type { Batch, Row } from "./Rows.js"

/** Whether `row`'s merges, followed one at a time (`merged_to`), pass through `personId`. */
const mergedThrough = (batch: Batch, row: Row, personId: string): boolean => {
  let at: Row | undefined = row
  for (let hops = 0; at !== undefined && at.merged_to != null && hops < 10_000; hops++) {
    if (at.merged_to === personId) return true
    at = batch.get("people", at.merged_to)
  }
  return false
}

export const People: Projection<"PersonAdded" | "PersonRenamed" | "PeopleMerged" | "PeopleUnmerged"> = {
  name: "people",
  canHandle: ["PersonAdded", "PersonRenamed", "PeopleMerged", "PeopleUnmerged"],
  wants(event, _position, keys) {
    switch (event._tag) {
      case "PersonAdded":
      case "PersonRenamed":
        return keys.add("people", "person_id", event.personId)
      case "PeopleMerged":
        keys.add("people", "person_id", event.from)
        return keys.add("people", "merged_into", event.from)
      case "PeopleUnmerged":
        keys.add("people", "person_id", event.personId)
        return keys.add("people", "merged_into", event.from)
      default:
        return absurd(event)
    }
  },
  evolve(batch, { event, position }) {
    switch (event._tag) {
      case "PersonAdded":
        if (!batch.has("people", event.personId)) {
          batch.put("people", { person_id: event.personId, user_id: event.user, name: event.name, position, merged_into: null, merged_to: null, former_names: null })
        }
        return
      case "PersonRenamed": {
        const person = batch.get("people", event.personId)
        if (person && person.name !== event.name) {
          const former = typeof person.former_names === "string" ? person.former_names.split("\n") : []
          const names = [...former.filter((n) => n !== event.name && n !== person.name), String(person.name)]
          batch.update("people", person, { name: event.name, former_names: names.join("\n") })
        }
        return
      }
      case "PeopleMerged": {
        // Whoever was merged into `from` before now belongs to `into` too.
        for (const row of [...batch.where("people", "merged_into", event.from), batch.get("people", event.from)]) {
          if (row) batch.update("people", row, { merged_into: event.into })
        }
        const from = batch.get("people", event.from)
        if (from) batch.update("people", from, { merged_to: event.into })
        return
      }
      case "PeopleUnmerged": {
        const person = batch.get("people", event.personId)
        if (!person || person.merged_into !== event.from) return
        batch.update("people", person, { merged_into: null, merged_to: null })
        // Whoever was merged into them, directly or through others, is under them again.
        for (const row of batch.where("people", "merged_into", event.from)) {
          if (mergedThrough(batch, row, event.personId)) batch.update("people", row, { merged_into: event.personId })
        }
        return
      }
      default:
        return absurd(event)
    }
  }
}

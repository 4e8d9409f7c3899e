/**
 * The people projection; owns `people`: the people a user has added, renamed (the names they had
 * before, one a line, in `former_names`), merged into another (`merged_into`, always a person not
 * merged away, so it is followed once; `merged_to`, whom the merge named) and unmerged again.
 */
import { absurd } from "effect"
import { type Step, stepwise } from "./Projection.js"
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

export const People = stepwise<"PersonAdded" | "PersonRenamed" | "PeopleMerged" | "PeopleUnmerged">(
  "people",
  ["PersonAdded", "PersonRenamed", "PeopleMerged", "PeopleUnmerged"],
  (event, position): Step => {
    switch (event._tag) {
      case "PersonAdded":
        return {
          wants: (keys) => keys.add("people", "person_id", event.personId),
          evolve: (batch) => {
            if (!batch.has("people", event.personId)) {
              batch.put("people", { person_id: event.personId, user_id: event.user, name: event.name, position, merged_into: null, merged_to: null, former_names: null, active: position })
            }
          }
        }
      case "PersonRenamed":
        return {
          wants: (keys) => keys.add("people", "person_id", event.personId),
          evolve: (batch) => {
            const person = batch.get("people", event.personId)
            if (person && person.name !== event.name) {
              const former = typeof person.former_names === "string" ? person.former_names.split("\n") : []
              const names = [...former.filter((n) => n !== event.name && n !== person.name), String(person.name)]
              batch.update("people", person, { name: event.name, former_names: names.join("\n") })
            }
          }
        }
      case "PeopleMerged":
        return {
          wants: (keys) => {
            keys.add("people", "person_id", event.from)
            keys.add("people", "merged_into", event.from)
          },
          evolve: (batch) => {
            // Whoever was merged into `from` before now belongs to `into` too.
            for (const row of [...batch.where("people", "merged_into", event.from), batch.get("people", event.from)]) {
              if (row) batch.update("people", row, { merged_into: event.into })
            }
            const from = batch.get("people", event.from)
            if (from) batch.update("people", from, { merged_to: event.into })
          }
        }
      case "PeopleUnmerged":
        return {
          wants: (keys) => {
            keys.add("people", "person_id", event.personId)
            keys.add("people", "merged_into", event.from)
          },
          evolve: (batch) => {
            const person = batch.get("people", event.personId)
            if (!person || person.merged_into !== event.from) return
            batch.update("people", person, { merged_into: null, merged_to: null })
            // Whoever was merged into them, directly or through others, is under them again.
            for (const row of batch.where("people", "merged_into", event.from)) {
              if (mergedThrough(batch, row, event.personId)) batch.update("people", row, { merged_into: event.personId })
            }
          }
        }
      default:
        return absurd(event)
    }
  }
)

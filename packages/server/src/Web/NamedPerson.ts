/**
 * The person a move or merge form names by typing rather than choosing from its list (which holds
 * the owner's most active people only): found among all of the owner's people by that name, or
 * refused with what the name found instead (no one, or several).
 */
import type { PersonId, UserId } from "@verbatim/domain/Ids"
import { personByName } from "@verbatim/domain/People/ByName"
import { Notebook } from "@verbatim/projections/Notebook"
import { Effect } from "effect"
import { CurationRefused } from "../Curation.js"

/** A typed name as a notice repeats it: quoted, or not repeated when too long for an address. */
const quoted = (typed: string) => (typed.trim().length <= 80 ? `“${typed.trim()}”` : "the name typed")

/** The one of `user`'s people (but `except`) named `typed`; a refusal saying why not otherwise. */
export const namedPerson = (user: UserId, typed: string, except?: PersonId) =>
  Effect.gen(function*() {
    const people = (yield* Effect.flatMap(Notebook, (read) => read.peopleNamed(user))).filter((p) => p.id !== except)
    const found = personByName(people, typed)
    switch (found._tag) {
      case "One":
        return found.id
      case "None":
        return yield* new CurationRefused({
          reason: "invalid",
          detail: typed.trim() === "" ? "type the name of the person you mean" : `none of the people is named ${quoted(typed)}`
        })
      case "Several":
        return yield* new CurationRefused({ reason: "invalid", detail: `${found.count} people are named ${quoted(typed)}; choose the one you mean from the list` })
    }
  })

/** A user's people renamed, merged and unmerged on their people stream: each change once, only by their user. */
import { at, user } from "@verbatim/testkit/Given"
import { DeciderSpec } from "@verbatim/testkit/DeciderSpec"
import { describe, it } from "@effect/vitest"
import type { Event } from "../../src/Events.js"
import { PersonId, UserId } from "../../src/Ids.js"
import { peopleDecider, type PeopleCommand } from "../../src/People/Decide.js"
import { rejected } from "../../src/Session/Commands.js"

const spec = DeciderSpec.for(peopleDecider)
const ana = { personId: PersonId.make("person-ana"), name: "Ana" }
const anna = { personId: PersonId.make("person-anna"), name: "Anna S." }
const known = [ana, anna]
const now = at(100)
const stranger = UserId.make("telegram:200000002")

const rename = (personId: string, name: string, asker: UserId | null = user): PeopleCommand =>
  ({ _tag: "Rename", user, asker, known, now, personId: PersonId.make(personId), name })
const merge = (from: string, into: string, asker: UserId | null = user): PeopleCommand =>
  ({ _tag: "Merge", user, asker, known, now, from: PersonId.make(from), into: PersonId.make(into) })
const merged = (from: string, into: string): Event =>
  ({ _tag: "PeopleMerged", user, from: PersonId.make(from), into: PersonId.make(into), mergedAt: now })

describe("Rename", () => {
  it("renames a person to a trimmed name", () => {
    spec.given([]).when(rename("person-ana", "  Ana Souza ")).then([
      { _tag: "PersonRenamed", personId: ana.personId, user, name: "Ana Souza", renamedAt: now }
    ])
  })

  it("refuses the same name, an empty one, another person's name, another user's person, an unknown person", () => {
    spec.given([]).when(rename("person-ana", "Ana")).thenRejects(rejected("unchanged", "already called Ana"))
    spec.given([]).when(rename("person-ana", " ")).thenRejects(rejected("invalid", "a person's name must not be empty"))
    spec.given([]).when(rename("person-ana", "anna s.")).thenRejects(rejected("invalid", "Anna S. is another person: merge them instead"))
    spec.given([]).when(rename("person-ana", "Ana Souza", stranger)).thenRejects(rejected("not-yours"))
    spec.given([]).when(rename("person-bob", "Bob")).thenRejects(rejected("not-found", "no person person-bob"))
    spec.given([]).when(rename("person-ana", "A\u0000na")).thenRejects(rejected("invalid", "the name contains U+0000 (NUL), which is not text"))
  })
})

describe("Merge", () => {
  it("folds one person into another once: a merge sent twice merges once", () => {
    spec.given([]).when(merge("person-anna", "person-ana")).then([merged("person-anna", "person-ana")])
    spec.given([merged("person-anna", "person-ana")]).when(merge("person-anna", "person-ana"))
      .thenRejects(rejected("not-found", "no person person-anna"))
  })

  it("refuses a merge into a person already merged away, into oneself, and by another user", () => {
    spec.given([merged("person-ana", "person-anna")]).when(merge("person-anna", "person-ana"))
      .thenRejects(rejected("not-found", "no person person-ana"))
    spec.given([]).when(merge("person-ana", "person-ana")).thenRejects(rejected("invalid", "a person cannot be merged into themselves"))
    spec.given([]).when(merge("person-anna", "person-ana", stranger)).thenRejects(rejected("not-yours"))
  })

  it("takes the operator's merge", () => {
    spec.given([]).when(merge("person-anna", "person-ana", null)).then([merged("person-anna", "person-ana")])
  })
})

const unmerge = (personId: string, asker: UserId | null = user): PeopleCommand =>
  ({ _tag: "Unmerge", user, asker, known, now, personId: PersonId.make(personId) })
const unmerged = (personId: string, from: string): Event =>
  ({ _tag: "PeopleUnmerged", user, personId: PersonId.make(personId), from: PersonId.make(from), unmergedAt: now })
const xana = "person-x"

describe("Unmerge", () => {
  it("undoes a merge once: an unmerge sent twice is unchanged the second time", () => {
    spec.given([merged("person-anna", "person-ana")]).when(unmerge("person-anna")).then([unmerged("person-anna", "person-ana")])
    spec.given([merged("person-anna", "person-ana"), unmerged("person-anna", "person-ana")]).when(unmerge("person-anna"))
      .thenRejects(rejected("unchanged", "Anna S. is not merged into anyone"))
  })

  it("refuses a person not merged, one the user does not have, and another user's", () => {
    spec.given([]).when(unmerge("person-ana")).thenRejects(rejected("unchanged", "Ana is not merged into anyone"))
    spec.given([]).when(unmerge("person-bob")).thenRejects(rejected("not-found", "no person person-bob"))
    spec.given([merged("person-anna", "person-ana")]).when(unmerge("person-anna", stranger)).thenRejects(rejected("not-yours"))
  })

  it("takes the operator's unmerge", () => {
    spec.given([merged("person-anna", "person-ana")]).when(unmerge("person-anna", null)).then([unmerged("person-anna", "person-ana")])
  })

  it("in a chain, names whom the person is under now: the end of the chain", () => {
    const chain = [merged("person-anna", "person-ana"), merged("person-ana", xana)]
    spec.given(chain).when(unmerge("person-anna")).then([unmerged("person-anna", xana)])
    spec.given(chain).when(unmerge("person-ana")).then([unmerged("person-ana", xana)])
    // The middle one out, the first is under them again, and comes out of them.
    spec.given([...chain, unmerged("person-ana", xana)]).when(unmerge("person-anna")).then([unmerged("person-anna", "person-ana")])
  })

  it("lets a person unmerged be merged again, and keeps whom they were merged into merged only where it still is", () => {
    spec.given([merged("person-anna", "person-ana"), unmerged("person-anna", "person-ana")]).when(merge("person-anna", "person-ana"))
      .then([merged("person-anna", "person-ana")])
    spec.given([merged("person-anna", "person-ana"), unmerged("person-anna", "person-ana")]).when(merge("person-ana", "person-anna"))
      .then([merged("person-ana", "person-anna")])
  })
})

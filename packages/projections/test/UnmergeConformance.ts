/** Merges undone on the read model, on every backend: exactly the person's own notes come back, applied twice, and rebuilt. */
import { activityKept } from "./ActivityKept.js"
import { SqlClient } from "@effect/sql/SqlClient"
import { PersonId } from "@verbatim/domain/Ids"
import { expect, it } from "@effect/vitest"
import { EventStore, start } from "@verbatim/projections/EventStore"
import { Notebook } from "@verbatim/projections/Notebook"
import { dump, rebuildAndVerify } from "@verbatim/projections/Projections/Rebuild"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import type { Services } from "@verbatim/projections/Store"
import * as G from "@verbatim/testkit/Given"
import * as C from "@verbatim/testkit/GivenCuration"
import { Chunk, Effect, Stream } from "effect"
import type { Layer } from "effect"
import { reapply } from "./Reapply.js"

const ana = { personId: "person-ana", name: "Ana" }
const anna = { personId: "person-anna", name: "Anna S." }
const xana = { personId: "person-x", name: "Xana" }

/** One note about each of Ana, Anna and Xana, and one of the sender's own. */
const filed = [
  [G.sessionStream("c"), [
    G.sessionOpened("c"),
    G.messageReceived("c", 1, "Ana moved to Porto."),
    G.messageReceived("c", 2, "Anna has a new dog."),
    G.messageReceived("c", 3, "Xana is moving too."),
    G.messageReceived("c", 4, "I should call them."),
    G.sessionClosed("c", 4),
    G.planProduced("c", "p1", 4),
    G.personAdded(ana.personId, ana.name),
    G.personAdded(anna.personId, anna.name),
    G.personAdded(xana.personId, xana.name),
    G.noteRecorded("c", "n1", [1], { planId: "p1", person: ana }),
    G.noteRecorded("c", "n2", [2], { planId: "p1", person: anna }),
    G.noteRecorded("c", "n3", [3], { planId: "p1", person: xana }),
    G.noteRecorded("c", "n4", [4], { planId: "p1" }),
    G.planApplied("c", "p1")
  ]]
] as const

/** Each note's id, person and the name it is filed under. */
const notes = Effect.flatMap(SqlClient, (sql) =>
  Effect.map(sql<Record<string, unknown>>`SELECT note_id, person_id, owner_name FROM notes ORDER BY note_id`, (rows) =>
    rows.map((r) => [r["note_id"], r["person_id"], r["owner_name"]])))

/** Each person's id, whom they are under now, and whom their merge named. */
const people = Effect.flatMap(SqlClient, (sql) =>
  Effect.map(sql<Record<string, unknown>>`SELECT person_id, merged_into, merged_to FROM people ORDER BY person_id`, (rows) =>
    rows.map((r) => [r["person_id"], r["merged_into"], r["merged_to"]])))

/** The read model as it stands, then after every event is applied again, then after a rebuild that verifies it. */
const stable = Effect.gen(function*() {
  const live = { notes: yield* notes, people: yield* people }
  const store = yield* EventStore
  yield* reapply(Chunk.toArray(yield* Stream.runCollect(store.readAll(start))))
  expect({ notes: yield* notes, people: yield* people }).toEqual(live)
  const before = yield* dump
  expect((yield* rebuildAndVerify).differing).toEqual([])
  expect(JSON.stringify(yield* dump)).toBe(JSON.stringify(before))
  return live
})

export const unmergeConformance = (layer: () => Layer.Layer<Services, unknown>) => {
  it.effect("an unmerge gives the person back the notes that were theirs; one filed under whom they joined after the merge stays", () =>
    Effect.gen(function*() {
      yield* G.given(...filed, [C.peopleStream, [C.peopleMerged("person-anna", "person-ana")]], [G.sessionStream("c"), [C.noteMoved("c", "n4", ana)]])
      expect(yield* notes).toEqual([["n1", "person-ana", "Ana"], ["n2", "person-ana", "Ana"], ["n3", "person-x", "Xana"], ["n4", "person-ana", "Ana"]])
      yield* G.given([C.peopleStream, [C.peopleUnmerged("person-anna", "person-ana")]])
      expect(yield* stable).toEqual({
        notes: [["n1", "person-ana", "Ana"], ["n2", "person-anna", "Anna S."], ["n3", "person-x", "Xana"], ["n4", "person-ana", "Ana"]],
        people: [["person-ana", null, null], ["person-anna", null, null], ["person-x", null, null]]
      })
      const activity = yield* activityKept
      expect(activity.kept).toEqual(activity.fromNotes)
      expect(yield* Effect.flatMap(SessionLookups, (read) => read.knownPeople(G.user))).toEqual([
        { personId: "person-ana", name: "Ana" },
        { personId: "person-anna", name: "Anna S." },
        { personId: "person-x", name: "Xana" }
      ])
    }).pipe(Effect.provide(layer())))

  it.effect("in a chain, unmerging the middle person brings back theirs and those of whoever is still merged into them", () =>
    Effect.gen(function*() {
      yield* G.given(...filed, [C.peopleStream, [C.peopleMerged("person-anna", "person-ana"), C.peopleMerged("person-ana", "person-x")]])
      expect(yield* notes).toEqual([["n1", "person-x", "Xana"], ["n2", "person-x", "Xana"], ["n3", "person-x", "Xana"], ["n4", null, null]])
      yield* G.given([C.peopleStream, [C.peopleUnmerged("person-ana", "person-x")]])
      expect(yield* stable).toEqual({
        notes: [["n1", "person-ana", "Ana"], ["n2", "person-ana", "Ana"], ["n3", "person-x", "Xana"], ["n4", null, null]],
        people: [["person-ana", null, null], ["person-anna", "person-ana", "person-ana"], ["person-x", null, null]]
      })
      const read = yield* Notebook
      expect([yield* read.personNames(PersonId.make("person-x")), yield* read.personNames(PersonId.make("person-ana"))]).toEqual([
        { formerNames: [], mergedIn: [] },
        { formerNames: [], mergedIn: [{ id: "person-anna", name: "Anna S.", formerNames: [] }] }
      ])
      yield* G.given([C.peopleStream, [C.peopleUnmerged("person-anna", "person-ana")]])
      expect((yield* stable).notes).toEqual([["n1", "person-ana", "Ana"], ["n2", "person-anna", "Anna S."], ["n3", "person-x", "Xana"], ["n4", null, null]])
    }).pipe(Effect.provide(layer())))

  it.effect("in a chain, unmerging the first person brings back theirs alone; the one they joined stays merged", () =>
    Effect.gen(function*() {
      yield* G.given(...filed, [C.peopleStream, [
        C.peopleMerged("person-anna", "person-ana"),
        C.peopleMerged("person-ana", "person-x"),
        C.peopleUnmerged("person-anna", "person-x")
      ]])
      expect(yield* stable).toEqual({
        notes: [["n1", "person-x", "Xana"], ["n2", "person-anna", "Anna S."], ["n3", "person-x", "Xana"], ["n4", null, null]],
        people: [["person-ana", "person-x", "person-x"], ["person-anna", null, null], ["person-x", null, null]]
      })
    }).pipe(Effect.provide(layer())))
}

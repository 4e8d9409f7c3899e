/** Curation on the read model, run against every backend: each change's rows, applied twice, and rebuilt. */
import { SqlClient } from "@effect/sql/SqlClient"
import { NoteId, PersonId, SessionId, UserId } from "@verbatim/domain/Ids"
import { expect, it } from "@effect/vitest"
import { EventStore, start } from "@verbatim/projections/EventStore"
import { activityKept } from "./ActivityKept.js"
import { reapply } from "./Reapply.js"
import { Notebook } from "@verbatim/projections/Notebook"
import { dump, rebuildAndVerify } from "@verbatim/projections/Projections/Rebuild"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import type { Services } from "@verbatim/projections/Store"
import * as G from "@verbatim/testkit/Given"
import * as C from "@verbatim/testkit/GivenCuration"
import { Chunk, Effect, Option, Stream } from "effect"
import type { Layer } from "effect"

const ana = { personId: "person-ana", name: "Ana" }
const anna = { personId: "person-anna", name: "Anna S." }

/** Three messages filed as one note about Ana, cutting a directive from the second; the third as the sender's own. */
const filed = [
  [G.sessionStream("c"), [
    G.sessionOpened("c"),
    G.messageReceived("c", 1, "Ana moved to Porto."),
    G.messageReceived("c", 2, "She starts at the bank in May, remind me"),
    G.messageReceived("c", 3, "I should call her."),
    G.sessionClosed("c", 3),
    G.planProduced("c", "p1", 3),
    G.personAdded(ana.personId, ana.name),
    G.personAdded(anna.personId, anna.name),
    G.noteRecorded("c", "n1", [1, 2], { planId: "p1", person: ana, directives: [[2, ", remind me"]] }),
    G.noteRecorded("c", "n2", [3], { planId: "p1" }),
    G.planApplied("c", "p1")
  ]]
] as const

const notes = Effect.flatMap(SqlClient, (sql) =>
  sql<Record<string, unknown>>`SELECT note_id, owner_kind, owner_contact_id, owner_name, person_id, body, discarded_at
    FROM notes ORDER BY note_id`)
const tableRows = (table: "note_sources" | "note_directives" | "people") =>
  Effect.flatMap(SqlClient, (sql) => sql<Record<string, unknown>>`SELECT * FROM ${sql(table)} ORDER BY 1, 2`)

export const curationConformance = (layer: () => Layer.Layer<Services, unknown>) => {
  it.effect("people by newest note, own notes, discarded notes apart, and a merged person's name standing for whom they joined", () =>
    Effect.gen(function*() {
      yield* G.given(...filed, ["person-x", [G.personAdded("person-x", "Xana")]], [G.sessionStream("c"), [
        C.noteSplit("c", "n1", "n1b", [2]),
        C.noteMoved("c", "n1b", anna),
        C.noteDiscarded("c", "n2")
      ]], [C.peopleStream, [C.peopleMerged("person-ana", "person-x")]])
      const activity = yield* activityKept
      expect(activity.kept).toEqual(activity.fromNotes)
      const read = yield* Notebook
      const names = (people: ReadonlyArray<{ readonly name: string; readonly noteCount: number }>) => people.map((p) => [p.name, p.noteCount])
      expect(names(yield* read.peopleByActivity({ limit: 10, user: G.user }))).toEqual([["Anna S.", 1], ["Xana", 1]])
      expect(names(yield* read.peopleByActivity({ limit: 10, user: UserId.make("telegram:999") }))).toEqual([])
      expect(names(yield* read.peopleByActivity({ limit: 10, user: G.user, among: [PersonId.make("person-x")] }))).toEqual([["Xana", 1]])
      expect(yield* read.peopleNamed(G.user)).toEqual([{ id: "person-anna", name: "Anna S." }, { id: "person-x", name: "Xana" }])
      const bodies = (page: { readonly items: ReadonlyArray<{ readonly body: string }> }) => page.items.map((n) => n.body)
      expect([
        bodies(yield* read.ownNotes(G.user, { limit: 10 })),
        bodies(yield* read.ownNotes(G.user, { limit: 10, discarded: true })),
        bodies(yield* read.newestNotes(PersonId.make("person-x"), { limit: 10 })),
        bodies(yield* read.newestNotes(PersonId.make("person-anna"), { limit: 10 }))
      ]).toEqual([[], ["I should call her."], ["Ana moved to Porto."], ["She starts at the bank in May"]])
      expect([yield* read.mergedInto(PersonId.make("person-ana")), yield* read.mergedInto(PersonId.make("person-x"))]).toEqual([Option.some("person-x"), Option.none()])
      expect(yield* Effect.flatMap(SessionLookups, (lookups) => lookups.knownPeople(G.user))).toEqual([
        { personId: "person-anna", name: "Anna S." },
        { personId: "person-x", name: "Xana" },
        { personId: "person-x", name: "Ana", mergedFrom: "person-ana" }
      ])
    }).pipe(Effect.provide(layer())))

  it.effect("a note's audit lists what its user did to it, oldest first, and when it was discarded; its accounting reads Discarded", () =>
    Effect.gen(function*() {
      yield* G.given(...filed, [G.sessionStream("c"), [C.noteSplit("c", "n1", "n1b", [2]), C.noteMoved("c", "n1b", null), C.noteDiscarded("c", "n1b")]])
      const read = yield* Notebook
      const audit = Option.getOrThrow(yield* read.noteAudit(NoteId.make("n1b")))
      const original = Option.getOrThrow(yield* read.noteAudit(NoteId.make("n1")))
      expect([audit.curation, audit.discardedAt, original.curation]).toEqual([
        [
          { _tag: "SplitFrom", from: "n1", at: G.at(1010), carriedFrom: null },
          { _tag: "Moved", to: { _tag: "Unattached" }, at: G.at(1000), carriedFrom: null },
          { _tag: "Discarded", at: G.at(1020), carriedFrom: null }
        ],
        G.at(1020),
        [{ _tag: "SplitOff", into: "n1b", seqs: [2], at: G.at(1010), carriedFrom: null }]
      ])
      const accounting = Option.getOrThrow(yield* read.sessionAccounting(SessionId.make("c")))
      expect(accounting.messages.map((m) => m.dispositions)).toEqual([
        [{ _tag: "InNote", noteId: "n1" }],
        [{ _tag: "Discarded", noteId: "n1b" }],
        [{ _tag: "InNote", noteId: "n2" }]
      ])
    }).pipe(Effect.provide(layer())))

  it.effect("a split moves the later messages, their directive and their body to a new note with the same owner", () =>
    Effect.gen(function*() {
      yield* G.given(...filed, [G.sessionStream("c"), [C.noteSplit("c", "n1", "n1b", [2])]])
      expect(yield* notes).toEqual([
        { note_id: "n1", owner_kind: "Person", owner_contact_id: "person-ana", owner_name: "Ana", person_id: "person-ana", body: "Ana moved to Porto.", discarded_at: null },
        { note_id: "n1b", owner_kind: "Person", owner_contact_id: "person-ana", owner_name: "Ana", person_id: "person-ana", body: "She starts at the bank in May", discarded_at: null },
        { note_id: "n2", owner_kind: "Unattached", owner_contact_id: null, owner_name: null, person_id: null, body: "I should call her.", discarded_at: null }
      ])
      expect((yield* tableRows("note_sources")).map((r) => [r["message_id"], r["note_id"], Number(r["seq"])])).toEqual([
        ["c/1", "n1", 1],
        ["c/2", "n1b", 2],
        ["c/3", "n2", 3]
      ])
      expect((yield* tableRows("note_directives")).map((r) => [r["note_id"], Number(r["ordinal"]), r["text"], Number(r["matched"])])).toEqual([
        ["n1b", 0, ", remind me", 1]
      ])
    }).pipe(Effect.provide(layer())))

  it.effect("a move, a discard and a restore, a rename and a merge change the rows they name, and applying them again changes nothing", () =>
    Effect.gen(function*() {
      yield* G.given(...filed, [G.sessionStream("c"), [C.noteMoved("c", "n2", anna), C.noteDiscarded("c", "n1")]], [
        C.peopleStream,
        [C.personRenamed("person-anna", "Anna Souza"), C.peopleMerged("person-ana", "person-anna")]
      ])
      const expected = [
        { note_id: "n1", owner_kind: "Person", owner_contact_id: "person-anna", owner_name: "Anna Souza", person_id: "person-anna", body: "Ana moved to Porto.\n\nShe starts at the bank in May", discarded_at: "2026-01-01T00:17:00.000Z" },
        { note_id: "n2", owner_kind: "Person", owner_contact_id: "person-anna", owner_name: "Anna Souza", person_id: "person-anna", body: "I should call her.", discarded_at: null }
      ]
      expect(yield* notes).toEqual(expected)
      expect((yield* tableRows("people")).map((r) => [r["person_id"], r["name"], r["merged_into"]])).toEqual([
        ["person-ana", "Ana", "person-anna"],
        ["person-anna", "Anna Souza", null]
      ])
      const store = yield* EventStore
      yield* reapply(Chunk.toArray(yield* Stream.runCollect(store.readAll(start))))
      expect(yield* notes).toEqual(expected)
      yield* G.given([G.sessionStream("c"), [C.noteRestored("c", "n1")]])
      expect((yield* notes).map((n) => n["discarded_at"])).toEqual([null, null])
      const activity = yield* activityKept
      expect(activity.kept).toEqual(activity.fromNotes)
    }).pipe(Effect.provide(layer())))

  it.effect("a note recorded for a person after they were merged away is filed under whom they were merged into, also on rebuild", () =>
    Effect.gen(function*() {
      yield* G.given(...filed, ["person-x", [G.personAdded("person-x", "Xana")]], [
        C.peopleStream,
        [C.peopleMerged("person-anna", "person-ana"), C.peopleMerged("person-ana", "person-x")]
      ], [G.sessionStream("c"), [C.noteSplit("c", "n1", "n1b", [2]), C.noteMoved("c", "n1b", anna)]])
      expect((yield* notes).map((n) => [n["note_id"], n["person_id"], n["owner_name"]])).toEqual([
        ["n1", "person-x", "Xana"],
        // Moved to Anna S. after her merge: filed under whom she was merged into, by the name the move gave.
        ["n1b", "person-x", "Anna S."],
        ["n2", null, null]
      ])
      expect((yield* tableRows("people")).map((r) => [r["person_id"], r["merged_into"]])).toEqual([
        ["person-ana", "person-x"],
        ["person-anna", "person-x"],
        ["person-x", null]
      ])
      const live = yield* dump
      expect((yield* rebuildAndVerify).differing).toEqual([])
      expect(JSON.stringify(yield* dump)).toBe(JSON.stringify(live))
    }).pipe(Effect.provide(layer())))

  it.effect("a person's former names and those merged into them; their notes a page at a time, the discarded ones apart; whom each was filed under as recorded", () =>
    Effect.gen(function*() {
      yield* G.given(...filed, ["person-x", [G.personAdded("person-x", "Xana")]], [G.sessionStream("c"), [C.noteSplit("c", "n1", "n1b", [2])]], [
        C.peopleStream,
        [
          C.personRenamed("person-ana", "Ana B"),
          C.peopleMerged("person-anna", "person-ana"),
          C.peopleMerged("person-ana", "person-x"),
          C.personRenamed("person-x", "Xana Lima")
        ]
      ], [G.sessionStream("c"), [C.noteDiscarded("c", "n1b")]])
      const read = yield* Notebook
      const ids = (page: Option.Option<{ readonly items: ReadonlyArray<{ readonly id: string }>; readonly nextCursor: string | null }>) =>
        Option.map(page, (p) => ({ ids: p.items.map((n) => n.id), more: p.nextCursor !== null }))
      const first = Option.getOrThrow(yield* read.notesByPerson(PersonId.make("person-x"), { limit: 1 }))
      expect({
        names: yield* read.personNames(PersonId.make("person-x")),
        first: ids(Option.some(first)),
        next: ids(yield* read.notesByPerson(PersonId.make("person-x"), { limit: 1, cursor: first.nextCursor ?? undefined })),
        discarded: ids(yield* read.notesByPerson(PersonId.make("person-x"), { limit: 1, discarded: true })),
        filedUnder: [Option.getOrThrow(yield* read.noteAudit(NoteId.make("n1b"))).filedUnder, Option.getOrThrow(yield* read.noteAudit(NoteId.make("n2"))).filedUnder]
      }).toEqual({
        names: {
          formerNames: ["Xana"],
          mergedIn: [{ id: "person-ana", name: "Ana B", formerNames: ["Ana"] }, { id: "person-anna", name: "Anna S.", formerNames: [] }]
        },
        first: Option.some({ ids: ["n1"], more: true }),
        next: Option.some({ ids: [], more: false }),
        discarded: Option.some({ ids: ["n1b"], more: true }),
        filedUnder: [{ personId: "person-ana", name: "Ana" }, null]
      })
    }).pipe(Effect.provide(layer())))
}

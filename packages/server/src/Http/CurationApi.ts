/**
 * The curation endpoints: the bearer token speaks for every user, so each change is the operator's.
 * A change is made whatever `VERBATIM_OPERATOR_READS` says; what it answers of another user's
 * note or person is shown as a read is (without its text under `none`, recorded under `audited`).
 */
import { HttpApiBuilder } from "@effect/platform"
import { Api, BadRequest, Conflict, NotFound } from "@verbatim/domain/Api"
import type { Note } from "@verbatim/domain/ApiResponses"
import type { NoteId, PersonId } from "@verbatim/domain/Ids"
import * as Withheld from "@verbatim/domain/OperatorReads/Withheld"
import type { StoreError } from "@verbatim/projections/EventStore"
import { Notebook } from "@verbatim/projections/Notebook"
import { Effect, Option } from "effect"
import * as Curation from "../Curation.js"
import { listed, listedOne, operator, type OperatorReads } from "../OperatorReads.js"

type Resource = "note" | "person"

/** A refusal as the API answers it: what is not there is a 404, a name it cannot take a 400, the rest a 409. */
const answered = (resource: Resource, id: string) => (e: Curation.CurationRefused) =>
  e.reason === "missing"
    ? new NotFound({ resource, id })
    : e.reason === "invalid"
    ? new BadRequest({ message: e.detail })
    : new Conflict({ message: e.detail })

export const layer = HttpApiBuilder.group(Api, "curation", (handlers) =>
  Effect.gen(function*() {
    const read = yield* Notebook
    const context = yield* Effect.context<Curation.Services | OperatorReads>()
    /** Run a change; a store failure is a 500, a refusal its status. */
    const run = <A>(resource: Resource, id: string, change: Effect.Effect<A, Curation.CurationRefused | StoreError, Curation.Services>) =>
      change.pipe(Effect.catchTag("StoreError", Effect.die), Effect.mapError(answered(resource, id)), Effect.provide(context))
    /** What the change left, read back. */
    const found = <A>(resource: Resource, id: string, result: Effect.Effect<Option.Option<A>, StoreError>) =>
      Effect.flatMap(Effect.orDie(result), Option.match({ onNone: () => Effect.fail(new NotFound({ resource, id })), onSome: Effect.succeed }))
    /** Notes as the operator is shown them: one read of the notes' users. */
    const notes = (items: ReadonlyArray<Note>) =>
      listed(operator, "note", items, (n) => ({ user: n.user, id: n.id }), Withheld.note).pipe(Effect.provide(context))
    const note = (id: NoteId) =>
      Effect.flatMap(found("note", id, read.note(id)), (n) =>
        listedOne(operator, "note", n, (i) => ({ user: i.user, id: i.id }), Withheld.note).pipe(Effect.provide(context)))
    const person = (id: PersonId) =>
      Effect.flatMap(found("person", id, read.person(id)), (p) =>
        listedOne(operator, "person", p, (i) => ({ user: i.user, id: i.id }), Withheld.person).pipe(Effect.provide(context)))
    return handlers
      .handle("moveNote", ({ path, payload }) => Effect.zipRight(run("note", path.id, Curation.moveNote(path.id, payload.to, null)), note(path.id)))
      .handle("splitNote", ({ path, payload }) =>
        Effect.gen(function*() {
          const newNoteId = yield* run("note", path.id, Curation.splitNote(path.id, payload.atSeq, null))
          const split = [yield* found("note", path.id, read.note(path.id)), yield* found("note", newNoteId, read.note(newNoteId))] as const
          const [kept, made] = yield* notes(split)
          return { note: kept ?? split[0], newNote: made ?? split[1] }
        }))
      .handle("discardNote", ({ path }) => Effect.zipRight(run("note", path.id, Curation.discardNote(path.id, true, null)), note(path.id)))
      .handle("restoreNote", ({ path }) => Effect.zipRight(run("note", path.id, Curation.discardNote(path.id, false, null)), note(path.id)))
      .handle("renamePerson", ({ path, payload }) => Effect.zipRight(run("person", path.id, Curation.renamePerson(path.id, payload.name, null)), person(path.id)))
      .handle("mergePeople", ({ path, payload }) =>
        Effect.zipRight(run("person", path.id, Curation.mergePeople(path.id, payload.into, null)), person(payload.into)))
      .handle("unmergePeople", ({ path }) => Effect.zipRight(run("person", path.id, Curation.unmergePeople(path.id, null)), person(path.id)))
  }))

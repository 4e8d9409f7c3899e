/** The curation endpoints: the bearer token speaks for every user, so each change is the operator's. */
import { HttpApiBuilder } from "@effect/platform"
import { Api, BadRequest, Conflict, NotFound } from "@verbatim/domain/Api"
import type { StoreError } from "@verbatim/projections/EventStore"
import { ReadModel } from "@verbatim/projections/ReadModel"
import { Effect, Option } from "effect"
import * as Curation from "../Curation.js"

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
    const read = yield* ReadModel
    const context = yield* Effect.context<Curation.Services>()
    /** Run a change; a store failure is a 500, a refusal its status. */
    const run = <A>(resource: Resource, id: string, change: Effect.Effect<A, Curation.CurationRefused | StoreError, Curation.Services>) =>
      change.pipe(Effect.catchTag("StoreError", Effect.die), Effect.mapError(answered(resource, id)), Effect.provide(context))
    /** What the change left, read back. */
    const found = <A>(resource: Resource, id: string, result: Effect.Effect<Option.Option<A>, StoreError>) =>
      Effect.flatMap(Effect.orDie(result), Option.match({ onNone: () => Effect.fail(new NotFound({ resource, id })), onSome: Effect.succeed }))
    return handlers
      .handle("moveNote", ({ path, payload }) =>
        Effect.zipRight(run("note", path.id, Curation.moveNote(path.id, payload.to, null)), found("note", path.id, read.note(path.id))))
      .handle("splitNote", ({ path, payload }) =>
        Effect.gen(function*() {
          const newNoteId = yield* run("note", path.id, Curation.splitNote(path.id, payload.atSeq, null))
          return { note: yield* found("note", path.id, read.note(path.id)), newNote: yield* found("note", newNoteId, read.note(newNoteId)) }
        }))
      .handle("discardNote", ({ path }) =>
        Effect.zipRight(run("note", path.id, Curation.discardNote(path.id, true, null)), found("note", path.id, read.note(path.id))))
      .handle("restoreNote", ({ path }) =>
        Effect.zipRight(run("note", path.id, Curation.discardNote(path.id, false, null)), found("note", path.id, read.note(path.id))))
      .handle("renamePerson", ({ path, payload }) =>
        Effect.zipRight(run("person", path.id, Curation.renamePerson(path.id, payload.name, null)), found("person", path.id, read.person(path.id))))
      .handle("mergePeople", ({ path, payload }) =>
        Effect.zipRight(run("person", path.id, Curation.mergePeople(path.id, payload.into, null)), found("person", payload.into, read.person(payload.into))))
  }))

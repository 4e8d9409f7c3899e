/** The bearer-protected read API: people, notes, audits, questions and answers, accounting, the event log. */
import { HttpApiBuilder } from "@effect/platform"
import { Api, Conflict, NotFound } from "@verbatim/domain/Api"
import type { AnswerResult } from "@verbatim/domain/ApiResponses"
import type { EventStore } from "@verbatim/projections/EventStore"
import { ReadModel } from "@verbatim/projections/ReadModel"
import { Effect, Option } from "effect"
import * as Answers from "../Inbox/Answers.js"
import type { IdGenerator } from "../IdGenerator.js"
import { ServerConfig } from "../ServerConfig.js"

/** Items per page when the request does not say. */
export const defaultLimit = 50

const orNotFound = <A, E, R>(
  resource: NotFound["resource"],
  id: string,
  found: Effect.Effect<Option.Option<A>, E, R>
): Effect.Effect<A, NotFound, R> =>
  found.pipe(
    Effect.orDie,
    Effect.flatMap(Option.match({ onNone: () => Effect.fail(new NotFound({ resource, id })), onSome: Effect.succeed }))
  )

export const layer = HttpApiBuilder.group(Api, "api", (handlers) =>
  Effect.gen(function*() {
    const read = yield* ReadModel
    const settings = yield* ServerConfig
    const context = yield* Effect.context<EventStore | ReadModel | IdGenerator>()
    const page = (params: { readonly user?: string | undefined; readonly limit?: number | undefined; readonly cursor?: string | undefined }) => ({
      user: params.user,
      limit: params.limit ?? defaultLimit,
      cursor: params.cursor
    })
    return handlers
      .handle("people", ({ urlParams }) => Effect.orDie(read.people(page(urlParams))))
      .handle("personNotes", ({ path, urlParams }) => orNotFound("person", path.id, read.notesByPerson(path.id, page(urlParams))))
      .handle("note", ({ path }) => orNotFound("note", path.id, read.note(path.id)))
      .handle("noteAudit", ({ path }) => orNotFound("note", path.id, read.noteAudit(path.id)))
      .handle("questions", ({ urlParams }) => Effect.orDie(read.questions({ ...page(urlParams), status: urlParams.status })))
      .handle("answer", ({ path, payload }) =>
        Answers.answer(path.id, { _tag: "Given", answer: payload.answer }, null).pipe(
          Effect.orDie,
          Effect.provide(context),
          Effect.flatMap((outcome): Effect.Effect<AnswerResult, NotFound | Conflict> => {
            switch (outcome._tag) {
              case "Filed":
                return Effect.succeed({ questionId: path.id, noteId: outcome.noteId })
              case "NotFound":
              case "NotYours":
                return Effect.fail(new NotFound({ resource: "question", id: path.id }))
              default:
                return Effect.fail(new Conflict({ message: Answers.outcomeText(outcome) }))
            }
          })
        ))
      .handle("accounting", ({ path }) => orNotFound("session", path.id, read.sessionAccounting(path.id)))
      .handle("search", ({ urlParams }) =>
        Effect.orDie(Effect.map(read.search(urlParams.q, { user: urlParams.user, limit: urlParams.limit ?? 50 }), (hits) => ({ hits }))))
      .handle("events", ({ urlParams }) => Effect.orDie(read.events(urlParams.after, urlParams.limit ?? 100, settings.eventsPageBytes)))
  }))

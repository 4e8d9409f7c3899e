/** The bearer-protected read API: people, notes, audits, a person's subject-access copy, questions and answers, accounting, the event log. */
import { HttpApiBuilder } from "@effect/platform"
import { Api, Conflict, NotFound, OperatorReadRefused } from "@verbatim/domain/Api"
import type { AnswerResult } from "@verbatim/domain/ApiResponses"
import type { UserId } from "@verbatim/domain/Ids"
import { eventLogMessage } from "@verbatim/domain/OperatorReads/Mode"
import * as Withheld from "@verbatim/domain/OperatorReads/Withheld"
import { EventLog } from "@verbatim/projections/EventLog"
import type { EventStore } from "@verbatim/projections/EventStore"
import { Notebook } from "@verbatim/projections/Notebook"
import type { SessionLookups } from "@verbatim/projections/SessionLookups"
import { Effect, Option } from "effect"
import * as Answers from "../Inbox/Answers.js"
import type { IdGenerator } from "../IdGenerator.js"
import { listed, listedOne, operator, OperatorReads, require, scope } from "../OperatorReads.js"
import { ServerConfig } from "../ServerConfig.js"
import * as SubjectAccess from "../SubjectAccess.js"

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
    const read = yield* Notebook
    const log = yield* EventLog
    const settings = yield* ServerConfig
    const reads = yield* OperatorReads
    const context = yield* Effect.context<EventStore | Notebook | SessionLookups | IdGenerator | OperatorReads>()
    const page = (params: { readonly user?: UserId | undefined; readonly limit?: number | undefined; readonly cursor?: string | undefined }) => ({
      user: params.user,
      limit: params.limit ?? defaultLimit,
      cursor: params.cursor
    })
    return handlers
      .handle("people", ({ urlParams }) =>
        Effect.gen(function*() {
          const found = yield* Effect.orDie(read.people(page(urlParams)))
          return { ...found, items: yield* listed(operator, "people", found.items, (p) => ({ user: p.user, id: p.id }), Withheld.person) }
        }).pipe(Effect.provide(context)))
      .handle("personNotes", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const person = yield* orNotFound("person", path.id, read.person(path.id))
          const notes = yield* orNotFound("person", path.id, read.notesByPerson(path.id, page(urlParams)))
          yield* require(operator, { user: person.user, kind: "person", ids: [path.id, ...notes.items.map((n) => n.id)] })
          return notes
        }).pipe(Effect.provide(context)))
      .handle("personExport", ({ path }) =>
        Effect.gen(function*() {
          const into = yield* Effect.orDie(read.mergedInto(path.id))
          const copy = yield* SubjectAccess.copyOf(operator, Option.getOrElse(into, () => path.id)).pipe(Effect.catchTag("StoreError", Effect.die))
          return yield* Option.match(copy, { onNone: () => Effect.fail(new NotFound({ resource: "person", id: path.id })), onSome: Effect.succeed })
        }).pipe(Effect.provide(context)))
      .handle("note", ({ path }) =>
        Effect.tap(orNotFound("note", path.id, read.note(path.id)), (note) => require(operator, { user: note.user, kind: "note", ids: [note.id] })).pipe(
          Effect.provide(context)
        ))
      .handle("noteAudit", ({ path }) =>
        Effect.tap(orNotFound("note", path.id, read.noteAudit(path.id)), (audit) => require(operator, { user: audit.note.user, kind: "note", ids: [path.id] }))
          .pipe(Effect.provide(context)))
      .handle("questions", ({ urlParams }) =>
        Effect.gen(function*() {
          const found = yield* Effect.orDie(read.questions({ ...page(urlParams), status: urlParams.status }))
          return { ...found, items: yield* listed(operator, "questions", found.items, (q) => ({ user: q.user, id: q.id }), Withheld.question) }
        }).pipe(Effect.provide(context)))
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
      .handle("accounting", ({ path }) =>
        Effect.gen(function*() {
          const accounting = yield* orNotFound("session", path.id, read.sessionAccounting(path.id))
          return yield* listedOne(operator, "session", accounting, (a) => ({ user: a.user, id: a.sessionId }), Withheld.accounting)
        }).pipe(Effect.provide(context)))
      .handle("search", ({ urlParams }) =>
        Effect.gen(function*() {
          const user = yield* scope(operator, urlParams.user)
          const { hits, next } = yield* Effect.orDie(read.search(urlParams.q, { user, limit: urlParams.limit ?? 50, before: urlParams.before }))
          const shown = yield* reads.shown(operator, hits.map((h) => ({ user: h.user, kind: "search", ids: [h.messageId] })))
          return { hits: hits.filter((h) => shown(h.user)), next }
        }).pipe(Effect.provide(context)))
      .handle("events", ({ urlParams }) =>
        reads.mode === "all"
          ? Effect.orDie(log.events(urlParams.after, urlParams.limit ?? 100, settings.eventsPageBytes))
          : Effect.fail(new OperatorReadRefused({ message: eventLogMessage(reads.mode) })))
  }))

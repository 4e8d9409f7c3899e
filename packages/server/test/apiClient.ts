/**
 * The API's client as its contract declares it (`HttpApiClient.make(Api)`), with the bearer
 * token: tests that read their results through it stop compiling when the contract changes.
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Api } from "@verbatim/domain/Api"
import { MessageId, NoteId, PersonId, SessionId, UserId } from "@verbatim/domain/Ids"
import type { ReminderStatus } from "@verbatim/domain/Reminders/Events"
import { Context, Effect, Inspectable, Layer } from "effect"

/** The client of the server at `baseUrl`, sending `token`: for a server the harness did not start. */
export const clientAt = (baseUrl: string, token: string) =>
  HttpApiClient.make(Api, {
    baseUrl,
    transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(token))
  }).pipe(Effect.provide(FetchHttpClient.layer))

export class ApiClient extends Context.Tag("@verbatim/server/test/ApiClient")<
  ApiClient,
  Effect.Effect.Success<ReturnType<typeof clientAt>>
>() {
  /** The client of the server at `baseUrl` (as it is once listening), sending `token`. */
  static readonly layer = <E, R>(baseUrl: Effect.Effect<string, E, R>, token: string) =>
    Layer.effect(ApiClient, Effect.flatMap(baseUrl, (url) => clientAt(url, token)))
}

/** Call the API through its typed client. */
export const client = <A, E, R>(call: (client: ApiClient["Type"]) => Effect.Effect<A, E, R>) => Effect.flatMap(ApiClient, call)

/**
 * What a call fails with, as the JSON the server sent (`_tag` and every field): vitest tells two
 * errors of one class apart by little more than their class.
 */
export const failureOf = <A, E, R>(call: Effect.Effect<A, E, R>) => Effect.map(Effect.flip(call), Inspectable.toJSON)

/**
 * Capture messages through `POST /api/messages` (the operator's unless `user` is given), each
 * `{ id, text }` as typed, not forwarded; the session is closed after them unless `close` is false.
 */
export const captureMessages = (
  messages: ReadonlyArray<{ readonly id: string; readonly text: string }>,
  options: { readonly close?: boolean; readonly user?: string } = {}
) =>
  client((c) =>
    c.capture.messages({
      payload: {
        messages: messages.map((m) => ({ ...m, forwardedFrom: null })),
        close: options.close ?? true,
        ...(options.user === undefined ? {} : { user: UserId.make(options.user) })
      }
    })
  )

/** A user's reminders (`GET /api/reminders`), only those in state `status` when given. */
export const remindersOf = (user: string, status?: ReminderStatus) =>
  client((c) => c.reminders.reminders({ urlParams: { user: UserId.make(user), ...(status === undefined ? {} : { status }) } }))

/** A session's messages with their dispositions (`GET /api/sessions/:id/accounting`). */
export const accountingOf = (sessionId: string) => client((c) => c.api.accounting({ path: { id: SessionId.make(sessionId) } }))

/** A note traced to its characters (`GET /api/notes/:id/audit`). */
export const auditOf = (noteId: string) => client((c) => c.api.noteAudit({ path: { id: NoteId.make(noteId) } }))

/** The people notes are about (`GET /api/people`), only `user`'s when given. */
export const peopleOf = (user?: string) =>
  client((c) => c.api.people({ urlParams: user === undefined ? {} : { user: UserId.make(user) } }))

/** A person's notes in the order recorded (`GET /api/people/:id/notes`). */
export const notesOf = (personId: string) => client((c) => c.api.personNotes({ path: { id: PersonId.make(personId) }, urlParams: {} }))

/** A note (`GET /api/notes/:id`). */
export const noteOf = (noteId: string) => client((c) => c.api.note({ path: { id: NoteId.make(noteId) } }))

/** Messages holding every word of `q` (`GET /api/search`), only `user`'s when given; a page of `limit` below `before`. */
export const searchFor = (q: string, user?: string, page: { readonly limit?: number; readonly before?: string } = {}) =>
  client((c) =>
    c.api.search({
      urlParams: {
        q,
        ...(user === undefined ? {} : { user: UserId.make(user) }),
        ...(page.limit === undefined ? {} : { limit: page.limit }),
        ...(page.before === undefined ? {} : { before: MessageId.make(page.before) })
      }
    }))

/**
 * What the operator reads of other users' data, as `VERBATIM_OPERATOR_READS` says (the domain's
 * `OperatorReads/Mode.ts`). Every route that shows text asks it, for the API (always the operator)
 * and the pages (the operator or a user) alike: a user reads their own; the operator reads their
 * own (`web:operator`) and, unless `none`, everyone's, under `audited` only once the read is
 * recorded on the user's stream (`OperatorRead`, one per request and user, before the answer).
 */
import { HttpServerRequest } from "@effect/platform"
import { OperatorReadRefused } from "@verbatim/domain/ApiErrors"
import { operatorUser, UserId } from "@verbatim/domain/Ids"
import { OperatorReadCommand, operatorReadDecider } from "@verbatim/domain/OperatorReads/Decide"
import type { ReadKind } from "@verbatim/domain/OperatorReads/Events"
import { notReadMessage, type OperatorReadsMode } from "@verbatim/domain/OperatorReads/Mode"
import { operatorReadsStream } from "@verbatim/domain/Streams"
import type { EventStore } from "@verbatim/projections/EventStore"
import type { FoldCache } from "@verbatim/projections/FoldCache"
import { Context, DateTime, Effect, Layer } from "effect"
import * as Runner from "./Runner.js"
import { ServerConfig } from "./ServerConfig.js"
import type { Subject } from "./Web/SignIn.js"

/** What a request would show of one user's data: whose, what, and the ids of what. */
export interface Read {
  readonly user: UserId
  readonly kind: ReadKind
  readonly ids: ReadonlyArray<string>
}

/** Whether a request's reader is shown a user's text. */
export type Shown = (user: string) => boolean

/** The API's reader: the bearer token is the operator's. */
export const operator: Subject = { _tag: "Operator" }

export class OperatorReads extends Context.Tag("@verbatim/server/OperatorReads")<OperatorReads, {
  readonly mode: OperatorReadsMode
  /**
   * Whose text `reader` is shown of the users `reads` name. Under `audited` each other user's read
   * is recorded first (one event per user, with every id of theirs the request shows).
   */
  readonly shown: (reader: Subject, reads: ReadonlyArray<Read>) => Effect.Effect<Shown, never, HttpServerRequest.HttpServerRequest>
}>() {
  static readonly layer = Layer.effect(
    OperatorReads,
    Effect.gen(function*() {
      const { operatorReads: mode } = yield* ServerConfig
      const context = yield* Effect.context<EventStore | FoldCache>()
      const record = (route: string, readAt: DateTime.Utc, read: Read) =>
        Runner.run(
          operatorReadDecider,
          operatorReadsStream(read.user),
          () => Effect.succeed(OperatorReadCommand.Record({ read: { user: read.user, kind: read.kind, route, ids: read.ids, readAt } }))
        ).pipe(Effect.provide(context), Effect.orDie)
      return OperatorReads.of({
        mode,
        shown: Effect.fn("OperatorReads.shown")(function*(reader: Subject, reads: ReadonlyArray<Read>) {
          if (reader._tag === "User") return (user: string) => user === reader.user
          if (mode === "none") return (user: string) => user === operatorUser
          if (mode === "all") return () => true
          const request = yield* HttpServerRequest.HttpServerRequest
          const route = `${request.method} ${new URL(request.url, "http://local").pathname}`
          const readAt = yield* DateTime.now
          yield* Effect.forEach(byUser(reads), (read) => record(route, readAt, read), { discard: true })
          return () => true
        })
      })
    })
  )
}

/** Other users' reads, one per user in order of first mention, each with its ids once. */
const byUser = (reads: ReadonlyArray<Read>): ReadonlyArray<Read> => {
  const users = new Map<UserId, { kind: ReadKind; ids: Set<string> }>()
  for (const read of reads) {
    if (read.user === operatorUser) continue
    const entry = users.get(read.user) ?? { kind: read.kind, ids: new Set<string>() }
    read.ids.forEach((id) => entry.ids.add(id))
    users.set(read.user, entry)
  }
  return [...users].map(([user, { ids, kind }]) => ({ user, kind, ids: [...ids] }))
}

/** One read of one user's text: shown (recorded under `audited`), or refused naming the setting. */
export const require = (reader: Subject, read: Read) =>
  Effect.flatMap(OperatorReads, (reads) =>
    Effect.flatMap(reads.shown(reader, [read]), (shown) =>
      shown(read.user) ? Effect.void : Effect.fail(new OperatorReadRefused({ message: notReadMessage }))))

/**
 * Items of a list as `reader` is shown them: whole when their user's text is shown (recorded
 * under `audited`), else through `withhold` (the same item without its text).
 */
export const listed = <A>(
  reader: Subject,
  kind: ReadKind,
  items: ReadonlyArray<A>,
  of: (item: A) => { readonly user: UserId; readonly id: string },
  withhold: (item: A) => A
) =>
  Effect.flatMap(OperatorReads, (reads) =>
    Effect.map(
      reads.shown(reader, items.map((item) => ({ user: of(item).user, kind, ids: [of(item).id] }))),
      (shown) => items.map((item) => (shown(of(item).user) ? item : withhold(item)))
    ))

/** One item as `reader` is shown it (see `listed`). */
export const listedOne = <A>(
  reader: Subject,
  kind: ReadKind,
  item: A,
  of: (item: A) => { readonly user: UserId; readonly id: string },
  withhold: (item: A) => A
) => Effect.map(listed(reader, kind, [item], of, withhold), (items) => items[0] ?? withhold(item))

/**
 * Whose data a search or list of `reader` may cover when it names `user` (or no one): a user's
 * own; under `none` the operator's own (`web:operator`), another user named being refused; else
 * whom it names (everyone when no one).
 */
export const scope = (reader: Subject, user: UserId | undefined) =>
  Effect.flatMap(OperatorReads, ({ mode }): Effect.Effect<UserId | undefined, OperatorReadRefused> => {
    if (reader._tag === "User") return Effect.succeed(reader.user)
    if (mode !== "none" || user === undefined || user === operatorUser) return Effect.succeed(mode === "none" ? operatorUser : user)
    return Effect.fail(new OperatorReadRefused({ message: notReadMessage }))
  })

/**
 * One group commit's transaction: the appends of the batch (`Append.ts`) and the side writes that
 * ride with them. A side write is a statement that must be durable before its caller goes on but
 * is not worth a flush of its own (a lease taken or released): it shares the commit, and its
 * fsync, with whatever is queued beside it. If anything fails the batch falls back to one
 * transaction per request, so one request's failure never costs another its write.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Cause, Context, Effect, Exit, Option } from "effect"
import type { AppendOutcome, AppendRequest, Deps, KeyRace } from "./Append.js"
import { appendEvents } from "./Append.js"
import { AppendResult, type StoreError } from "./EventStore.js"
import { sqlError } from "./internal/Rows.js"

/** Statements to commit beside the batch's appends, as one caller's request. */
export interface SideWrite {
  readonly _tag: "SideWrite"
  /**
   * The row the write locks. A batch runs its side writes in order of key (in order of submission
   * for one key), so two instances' batches lock rows in the same order and cannot deadlock.
   */
  readonly key: string
  readonly write: Effect.Effect<void, SqlError | StoreError, SqlClient>
}

export type CommitRequest = AppendRequest | SideWrite

/** Each request's outcome, of its own kind. */
export type CommitOutcome =
  | { readonly _tag: "Append"; readonly exit: AppendOutcome }
  | { readonly _tag: "SideWrite"; readonly exit: Exit.Exit<void, StoreError> }

/** The batch in the current transaction; fails as a whole (to be retried per request) on any error. */
const commitAll = (deps: Deps, requests: ReadonlyArray<CommitRequest>) =>
  Effect.gen(function*() {
    yield* deps.dialect.beginWrite(deps.sql)
    const appends = requests.filter((r): r is AppendRequest => r._tag === "Append")
    const appended = appends.length === 0 ? [] : yield* appendEvents(deps, appends)
    const sides = requests.filter((r): r is SideWrite => r._tag === "SideWrite")
    // `sort` is stable: one key's writes keep their order.
    for (const side of [...sides].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
      yield* Effect.provideService(side.write, SqlClient, deps.sql)
    }
    let next = 0
    return requests.map((r): CommitOutcome =>
      r._tag === "Append" ? { _tag: "Append", exit: appended[next++]! } : { _tag: "SideWrite", exit: Exit.void }
    )
  })

/** A request's outcome when its transaction did not commit. */
const failed = (request: CommitRequest, exit: Exit.Exit<never, StoreError>): CommitOutcome =>
  request._tag === "Append" ? { _tag: "Append", exit } : { _tag: "SideWrite", exit }

/** The outcome of a lone request whose transaction failed: a key another instance recorded first is a duplicate, not a failure. */
const failedOutcome = (request: CommitRequest, cause: Cause.Cause<KeyRace | StoreError | SqlError>): CommitOutcome =>
  Option.match(Cause.failureOption(cause), {
    onNone: () => failed(request, Exit.die(Cause.squash(cause))),
    onSome: (error) =>
      error._tag === "KeyRace"
        ? { _tag: "Append", exit: Exit.succeed(AppendResult.AlreadyRecorded({ keys: error.keys })) }
        : failed(request, Exit.fail(error._tag === "StoreError" ? error : sqlError(error)))
  })

/** One request in a transaction of its own. */
const alone = (deps: Deps, request: CommitRequest) =>
  Effect.map(
    Effect.exit(deps.sql.withTransaction(commitAll(deps, [request]))),
    (exit) => (Exit.isSuccess(exit) ? exit.value[0]! : failedOutcome(request, exit.cause))
  )

/**
 * Commit a batch: all requests in one transaction; if that fails (or its commit does), each in a
 * transaction of its own. Not in savepoints of the failed one: rolling back to a savepoint
 * releases the stream locks taken after it but keeps the transaction id PostgreSQL assigned at the
 * first insert, so another writer could append to the stream in between and a reader ordering by
 * (transaction id, position) would see the two out of stream order.
 */
export const commitBatch = (deps: Deps) => (requests: ReadonlyArray<CommitRequest>): Effect.Effect<ReadonlyArray<CommitOutcome>> =>
  Effect.exit(deps.sql.withTransaction(commitAll(deps, requests))).pipe(
    Effect.flatMap((together): Effect.Effect<ReadonlyArray<CommitOutcome>> => {
      if (Exit.isSuccess(together)) return Effect.succeed(together.value)
      if (requests.length === 1) return Effect.succeed([failedOutcome(requests[0]!, together.cause)])
      return Effect.forEach(requests, (request) => alone(deps, request))
    }),
    Effect.catchAllDefect((defect) => Effect.succeed(requests.map((r) => failed(r, Exit.die(defect)))))
  )

/** The store's group commit, for writes that ride in its transactions beside the appends. */
export class Committer extends Context.Tag("@verbatim/projections/Committer")<Committer, {
  /**
   * Run `write` in the next group commit's transaction and answer its result once that has
   * committed. `key` names the row it locks (see `SideWrite`). The write may run more than once
   * (a batch that fails is retried request by request); the answer is from the run that committed.
   */
  readonly alongside: <A>(key: string, write: Effect.Effect<A, SqlError | StoreError, SqlClient>) => Effect.Effect<A, StoreError>
}>() {}

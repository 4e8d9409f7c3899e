/**
 * Group commit: appends queued while a transaction runs share the next one (one fsync).
 * Each append runs in its own savepoint, so a failing append rolls back alone; if the shared
 * commit itself fails, every append of the batch is retried in a transaction of its own.
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import { Deferred, Effect, Exit, Queue } from "effect"
import type { Scope } from "effect"

interface Pending {
  readonly work: Effect.Effect<unknown, unknown>
  readonly done: Deferred.Deferred<unknown, unknown>
}

/** Runs work items in shared transactions; `submit` resolves once its item committed or failed. */
export interface GroupCommit {
  readonly submit: <A, E>(work: Effect.Effect<A, E>) => Effect.Effect<A, E>
}

/** Start the committer fiber in the given scope. */
export const make = (sql: SqlClient, maxBatch: number): Effect.Effect<GroupCommit, never, Scope.Scope> =>
  Effect.gen(function*() {
    const queue = yield* Queue.unbounded<Pending>()
    yield* Effect.addFinalizer(() => Queue.shutdown(queue))

    const alone = (pending: Pending) =>
      Effect.flatMap(Effect.exit(sql.withTransaction(pending.work)), (exit) => Deferred.done(pending.done, exit))

    const runBatch = (batch: ReadonlyArray<Pending>) =>
      sql.withTransaction(Effect.forEach(batch, (pending) => Effect.exit(sql.withTransaction(pending.work)))).pipe(
        Effect.matchEffect({
          onFailure: () => Effect.forEach(batch, alone, { discard: true }),
          onSuccess: (exits) =>
            Effect.forEach(batch, (pending, i) => Deferred.done(pending.done, exits[i] ?? Exit.die("lost exit")), {
              discard: true
            })
        })
      )

    yield* Queue.takeBetween(queue, 1, maxBatch).pipe(
      Effect.flatMap((chunk) => runBatch(Array.from(chunk))),
      Effect.forever,
      Effect.forkScoped
    )

    const submit = <A, E>(work: Effect.Effect<A, E>): Effect.Effect<A, E> =>
      Effect.gen(function*() {
        const done = yield* Deferred.make<A, E>()
        yield* Queue.offer(queue, { work, done } as unknown as Pending)
        return yield* Deferred.await(done)
      })
    return { submit }
  })

/**
 * Group commit: requests queued while a batch runs are taken together into the next batch, so
 * one transaction (one fsync) serves them all. The batch function owns isolation: it returns
 * one outcome per request, in order, and never fails as a whole.
 */
import { Deferred, Effect, Queue } from "effect"
import type { Scope } from "effect"

interface Pending<I, O> {
  readonly request: I
  readonly done: Deferred.Deferred<O>
}

/** Submit a request; resolves with its outcome once its batch has committed or failed. */
export interface GroupCommit<I, O> {
  readonly submit: (request: I) => Effect.Effect<O>
}

/** Start the committer fiber in the given scope. */
export const make = <I, O>(
  maxBatch: number,
  runBatch: (requests: ReadonlyArray<I>) => Effect.Effect<ReadonlyArray<O>>
): Effect.Effect<GroupCommit<I, O>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const queue = yield* Queue.unbounded<Pending<I, O>>()
    yield* Effect.addFinalizer(() => Queue.shutdown(queue))
    yield* Queue.takeBetween(queue, 1, maxBatch).pipe(
      Effect.flatMap((chunk) => {
        const batch = Array.from(chunk)
        return Effect.flatMap(runBatch(batch.map((p) => p.request)), (outcomes) =>
          Effect.forEach(batch, (pending, i) => Deferred.succeed(pending.done, outcomes[i]!), { discard: true }))
      }),
      Effect.forever,
      Effect.forkScoped
    )
    return {
      submit: (request) =>
        Effect.gen(function*() {
          const done = yield* Deferred.make<O>()
          yield* Queue.offer(queue, { request, done })
          return yield* Deferred.await(done)
        })
    }
  })

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

/** Resumes once the event loop has run its pending I/O callbacks (Node's check phase). */
const endOfTurn: Effect.Effect<void> = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

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
    // After the first request, wait for the event loop's current turn to finish (a macrotask,
    // not a fiber yield): every request whose bytes arrived meanwhile, and every caller woken by
    // the previous commit, runs up to its own submit first. A fiber yield only lets the runnable
    // fibers go, so under load batches stayed at one request and each paid its own commit.
    const nextBatch = Effect.gen(function*() {
      const first = yield* Queue.take(queue)
      yield* endOfTurn
      return [first, ...(yield* Queue.takeUpTo(queue, maxBatch - 1))]
    })
    yield* nextBatch.pipe(
      Effect.flatMap((batch) => {
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

/**
 * Group commit: requests queued while a batch runs are taken together into the next batch, so
 * one transaction (one fsync) serves them all. The batch function owns isolation: it returns
 * one outcome per request, in order, and never fails as a whole.
 */
import { Effect, Exit } from "effect"
import type { Scope } from "effect"

interface Pending<I, O> {
  readonly request: I
  readonly resume: (outcome: Effect.Effect<O>) => void
}

/** Resumes once the event loop has run its pending I/O callbacks (Node's check phase). */
const endOfTurn: Effect.Effect<void> = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

/** Submit a request; resolves with its outcome once its batch has committed or failed. */
export interface GroupCommit<I, O> {
  readonly submit: (request: I) => Effect.Effect<O>
  /** Several requests at once, taken into the same batch when they fit; outcomes in order. */
  readonly submitAll: (requests: ReadonlyArray<I>) => Effect.Effect<ReadonlyArray<O>>
  /**
   * Queue a request from outside any fiber (a plain `node:http` handler): `resume` runs the
   * outcome's effect when the batch is done. No fiber is started for the request.
   */
  readonly offer: (request: I, resume: (outcome: Effect.Effect<O>) => void) => void
}

/**
 * Start the committer fiber in the given scope. Waiting requests are a plain array and each
 * caller waits on its own callback: a queue and a deferred per request cost more than a tenth
 * of an append in a full batch. A request taken into a batch is committed even if its caller
 * is interrupted meanwhile; requests still waiting when the scope closes are interrupted.
 */
export const make = <I, O>(
  maxBatch: number,
  runBatch: (requests: ReadonlyArray<I>) => Effect.Effect<ReadonlyArray<O>>
): Effect.Effect<GroupCommit<I, O>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const pending: Array<Pending<I, O>> = []
    /** Set while the committer waits for a first request. */
    let wake: (() => void) | null = null
    const firstRequest = Effect.async<void>((resume) => {
      if (pending.length > 0) return resume(Effect.void)
      wake = () => {
        wake = null
        resume(Effect.void)
      }
      return Effect.sync(() => {
        wake = null
      })
    })
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        for (const waiting of pending.splice(0)) waiting.resume(Effect.interrupt)
      })
    )
    // After the first request, wait for the event loop's current turn to finish (a macrotask,
    // not a fiber yield): every request whose bytes arrived meanwhile, and every caller woken by
    // the previous commit, runs up to its own submit first. A fiber yield only lets the runnable
    // fibers go, so under load batches stayed at one request and each paid its own commit.
    const commitTaken = Effect.gen(function*() {
      const batch = pending.splice(0, maxBatch)
      const outcomes = yield* Effect.exit(runBatch(batch.map((waiting) => waiting.request)))
      batch.forEach((waiting, i) =>
        waiting.resume(Exit.isSuccess(outcomes) ? Effect.succeed(outcomes.value[i]!) : Effect.failCause(outcomes.cause))
      )
    })
    // Waiting is interruptible; a batch, once taken, is committed and answered even while the
    // scope closes.
    const commitNext = firstRequest.pipe(Effect.zipRight(endOfTurn), Effect.zipRight(Effect.uninterruptible(commitTaken)))
    yield* Effect.forkScoped(Effect.forever(commitNext))
    const offer = (request: I, resume: (outcome: Effect.Effect<O>) => void) => {
      pending.push({ request, resume })
      wake?.()
    }
    return {
      submit: (request) => Effect.async<O>((resume) => offer(request, resume)),
      submitAll: (requests) =>
        Effect.async<ReadonlyArray<O>>((resume) => {
          if (requests.length === 0) return resume(Effect.succeed([]))
          const outcomes: Array<Effect.Effect<O>> = []
          let waiting = requests.length
          requests.forEach((request, i) =>
            offer(request, (outcome) => {
              outcomes[i] = outcome
              waiting -= 1
              if (waiting === 0) resume(Effect.all(outcomes))
            })
          )
        }),
      offer
    }
  })

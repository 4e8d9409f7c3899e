/**
 * Flushes that overlap the commits after them. A batch that has committed asks for a flush and its
 * callers wait for it, while the committer goes on to commit the next batch: one flush runs at a
 * time, and the batches that commit while it runs share the next one. A flush started after a
 * commit carries it (a file's flush carries every write before it), so a caller is answered only
 * once what it asked for is on the disk.
 */
import { Effect, Exit, Fiber } from "effect"
import type { Scope } from "effect"

export interface Flusher {
  /**
   * Ask for a flush of everything committed so far; the effect returned waits for it. Asking is
   * immediate (call it right after the commit); waiting is for the callers.
   */
  readonly ask: () => Effect.Effect<void>
}

/** Start the flushing fiber in the given scope; `flush` failing is a defect (the state of the disk is unknown). */
export const make = (flush: Effect.Effect<void>): Effect.Effect<Flusher, never, Scope.Scope> =>
  Effect.gen(function*() {
    /** The newest commit that asked, and the newest one a completed flush carries, by count. */
    let asked = 0
    let flushed = 0
    const waiting: Array<{ readonly upTo: number; readonly resume: (done: Effect.Effect<void>) => void }> = []
    let wake: (() => void) | null = null

    const nextAsk = Effect.async<void>((resume) => {
      if (asked > flushed) return resume(Effect.void)
      wake = () => {
        wake = null
        resume(Effect.void)
      }
      return Effect.sync(() => {
        wake = null
      })
    })

    const settle = (done: Effect.Effect<void>, upTo: number) => {
      for (let i = waiting.length - 1; i >= 0; i--) {
        if (waiting[i]!.upTo <= upTo) waiting.splice(i, 1)[0]!.resume(done)
      }
    }

    const flushOnce = Effect.gen(function*() {
      const target = asked
      const exit = yield* Effect.exit(flush)
      // Either way the asks up to `target` are answered: a failed flush is not tried again for
      // them (that would spin on a failing disk), and a later ask flushes anew.
      flushed = target
      settle(Exit.isSuccess(exit) ? Effect.void : Effect.failCause(exit.cause), target)
    })
    // Waiting for an ask may be interrupted (the scope closing); a flush, once started, is finished.
    const fiber = yield* Effect.forkScoped(Effect.forever(Effect.zipRight(nextAsk, Effect.uninterruptible(flushOnce))))
    yield* Effect.addFinalizer(() => Effect.zipRight(Fiber.interrupt(fiber), Effect.sync(() => settle(Effect.interrupt, asked))))

    const ask = () => {
      asked += 1
      const upTo = asked
      wake?.()
      return Effect.async<void>((resume) => {
        if (flushed >= upTo) return resume(Effect.void)
        waiting.push({ upTo, resume })
      })
    }
    return { ask }
  })

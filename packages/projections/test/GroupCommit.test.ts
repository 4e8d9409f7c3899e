import { describe, expect, it } from "@effect/vitest"
import { Cause, Deferred, Effect, Exit, Fiber, Scope } from "effect"
import * as GroupCommit from "../src/GroupCommit.js"

/** A batch function that records each batch it is given and answers `n` with `n * 10`. */
const recording = () => {
  const batches: Array<ReadonlyArray<number>> = []
  const run = (requests: ReadonlyArray<number>) =>
    Effect.sync(() => {
      batches.push(requests)
      return requests.map((n) => n * 10)
    })
  return { batches, run }
}

describe("GroupCommit", () => {
  it.scoped("requests submitted in one turn share one batch, and each caller gets its own outcome", () =>
    Effect.gen(function*() {
      const { batches, run } = recording()
      const committer = yield* GroupCommit.make(256, run)
      const outcomes = yield* Effect.forEach([1, 2, 3, 4, 5], committer.submit, { concurrency: "unbounded" })
      expect(outcomes).toEqual([10, 20, 30, 40, 50])
      expect(batches).toEqual([[1, 2, 3, 4, 5]])
    }))

  it.scoped("submitAll and offer join the same batch as submit; offer answers a plain callback with the outcome as an exit", () =>
    Effect.gen(function*() {
      const { batches, run } = recording()
      const committer = yield* GroupCommit.make(256, run)
      const offered: Array<number> = []
      committer.offer(7, (outcome) => {
        if (Exit.isExit(outcome) && Exit.isSuccess(outcome)) offered.push(outcome.value as number)
      })
      const [all, one] = yield* Effect.all([committer.submitAll([1, 2, 3]), committer.submit(4)], { concurrency: "unbounded" })
      expect([all, one, offered]).toEqual([[10, 20, 30], 40, [70]])
      expect(batches).toEqual([[7, 1, 2, 3, 4]])
      expect(yield* committer.submitAll([])).toEqual([])
    }))

  it.scoped("a batch takes at most maxBatch requests, in the order they were submitted", () =>
    Effect.gen(function*() {
      const { batches, run } = recording()
      const committer = yield* GroupCommit.make(4, run)
      const outcomes = yield* Effect.forEach([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], committer.submit, { concurrency: "unbounded" })
      expect(outcomes).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100])
      expect(batches).toEqual([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10]])
    }))

  it.scoped("a batch that dies fails each of its callers with the defect, and later requests are still served", () =>
    Effect.gen(function*() {
      const batches: Array<ReadonlyArray<number>> = []
      const committer = yield* GroupCommit.make(256, (requests: ReadonlyArray<number>) =>
        Effect.suspend(() => {
          batches.push(requests)
          return requests.includes(0) ? Effect.dieMessage("disk gone") : Effect.succeed(requests.map((n) => n * 10))
        }))
      const failed = yield* Effect.forEach([0, 1], (n) => Effect.exit(committer.submit(n)), { concurrency: "unbounded" })
      const defects = failed.map((exit) =>
        Exit.isFailure(exit) && Cause.isDie(exit.cause) ? (Cause.squash(exit.cause) as Error).message : "not a defect"
      )
      expect(defects).toEqual(["disk gone", "disk gone"])
      expect(yield* committer.submit(2)).toBe(20)
      expect(batches).toEqual([[0, 1], [2]])
    }), 10_000)

  it.live("closing the scope lets the batch in flight commit and answer; requests still waiting are interrupted", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const started = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const committed: Array<ReadonlyArray<number>> = []
      const committer = yield* GroupCommit.make(2, (requests: ReadonlyArray<number>) =>
        Effect.gen(function*() {
          yield* Deferred.succeed(started, undefined)
          yield* Deferred.await(release)
          committed.push(requests)
          return requests.map((n) => n * 10)
        })).pipe(Scope.extend(scope))
      const callers = yield* Effect.forEach([1, 2, 3], (n) => Effect.fork(Effect.exit(committer.submit(n))))
      yield* Deferred.await(started)
      const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
      yield* Effect.sleep("20 millis")
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(closing)
      const exits = yield* Effect.forEach(callers, Fiber.join)
      expect(committed).toEqual([[1, 2]])
      expect(exits.map((exit) => Exit.isSuccess(exit) ? exit.value : Exit.isInterrupted(exit) ? "interrupted" : "failed"))
        .toEqual([10, 20, "interrupted"])
    }), 10_000)
})

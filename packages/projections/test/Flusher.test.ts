/** The flusher answers a commit's callers only after a flush that carries it, and lets commits go on meanwhile. */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Queue, TestServices } from "effect"
import * as Flusher from "../src/Flusher.js"

/** A flush that waits for a go from the test each time, and says when it starts. */
const gated = Effect.gen(function*() {
  const started = yield* Queue.unbounded<number>()
  const gates: Array<Deferred.Deferred<void>> = []
  let count = 0
  const flush = Effect.gen(function*() {
    const gate = yield* Deferred.make<void>()
    gates.push(gate)
    count += 1
    yield* Queue.offer(started, count)
    yield* Deferred.await(gate)
  })
  const release = (n: number) => Deferred.succeed(gates[n - 1]!, undefined)
  return { flush, started, release, flushes: () => count }
})

describe("Flusher", () => {
  it.scoped("a caller is answered once a flush that started after its ask has ended; asks during a flush share the next one", () =>
    Effect.gen(function*() {
      const { flush, flushes, release, started } = yield* gated
      const flusher = yield* Flusher.make(flush)
      const first = yield* Effect.fork(flusher.ask())
      expect(yield* Queue.take(started)).toBe(1)
      // Two commits while the first flush runs: neither is carried by it.
      const second = yield* Effect.fork(flusher.ask())
      const third = yield* Effect.fork(flusher.ask())
      yield* release(1)
      yield* Fiber.join(first)
      expect(yield* Queue.take(started)).toBe(2)
      expect([(yield* Fiber.poll(second))._tag, (yield* Fiber.poll(third))._tag]).toEqual(["None", "None"])
      yield* release(2)
      yield* Fiber.join(second)
      yield* Fiber.join(third)
      expect(flushes()).toBe(2)
    }))

  it.scoped("a flush that fails is a defect for the callers waiting on it, not retried on its own; the next ask flushes again", () =>
    Effect.gen(function*() {
      let failing = true
      let flushes = 0
      const flusher = yield* Flusher.make(Effect.suspend(() => {
        flushes += 1
        return failing ? Effect.die(new Error("EIO")) : Effect.void
      }))
      expect(yield* Effect.exit(flusher.ask())).toEqual(Exit.die(new Error("EIO")))
      // Not tried again on its own: a failing disk is not flushed in a loop.
      yield* TestServices.provideLive(Effect.sleep("20 millis"))
      expect(flushes).toBe(1)
      failing = false
      expect(yield* Effect.exit(flusher.ask())).toEqual(Exit.void)
      expect(flushes).toBe(2)
    }))
})

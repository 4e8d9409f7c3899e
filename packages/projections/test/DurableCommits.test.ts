/**
 * With a flush of its own (SQLite at `FULL`), the store answers an append only after a flush that
 * carries it, and commits the next batch while that flush runs.
 */
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import * as Dialects from "@verbatim/projections/internal/Dialect"
import { migrate } from "@verbatim/projections/Migrations"
import * as Projector from "@verbatim/projections/Projections/Projector"
import * as SqlEventStore from "@verbatim/projections/SqlEventStore"
import { messageReceived } from "@verbatim/testkit/Given"
import { tempDir } from "@verbatim/testkit/TempDir"
import { Deferred, Effect, Fiber, Layer, Queue, TestServices } from "effect"
import { join } from "node:path"

const rowsOf = (stream: string) =>
  Effect.flatMap(SqlClient, (sql) =>
    Effect.map(sql<{ n: number }>`SELECT COUNT(*) AS n FROM events WHERE stream = ${stream}`, (rows) => Number(rows[0]!.n)))

/** Wait (on the real clock) until the stream has its row: committed, whether or not answered. */
const committed = (stream: string) =>
  TestServices.provideLive(Effect.sleep("2 millis")).pipe(Effect.zipRight(rowsOf(stream)), Effect.repeat({ until: (n) => n === 1, times: 500 }))

describe("durable commits", () => {
  it.scoped("an append is answered after the flush that carries it; the next batch commits while that flush runs", () =>
    Effect.gen(function*() {
      const started = yield* Queue.unbounded<number>()
      const gates: Array<Deferred.Deferred<void>> = []
      const flush = Effect.gen(function*() {
        const gate = yield* Deferred.make<void>()
        gates.push(gate)
        yield* Queue.offer(started, gates.length)
        yield* Deferred.await(gate)
      })
      yield* migrate
      const { store } = yield* SqlEventStore.make({ dialect: Dialects.sqlite, project: Projector.apply, durable: flush })
      const first = yield* Effect.fork(store.append("durable-a", 0, [messageReceived("a", 1, "one")]))
      expect(yield* Queue.take(started)).toBe(1)
      expect(yield* rowsOf("durable-a")).toBe(1)
      const second = yield* Effect.fork(store.append("durable-b", 0, [messageReceived("b", 1, "two")]))
      yield* committed("durable-b")
      expect([(yield* Fiber.poll(first))._tag, (yield* Fiber.poll(second))._tag]).toEqual(["None", "None"])
      yield* Deferred.succeed(gates[0]!, undefined)
      expect((yield* Fiber.join(first))._tag).toBe("Appended")
      expect(yield* Queue.take(started)).toBe(2)
      expect((yield* Fiber.poll(second))._tag).toBe("None")
      yield* Deferred.succeed(gates[1]!, undefined)
      expect((yield* Fiber.join(second))._tag).toBe("Appended")
    }).pipe(
      Effect.provide(Layer.unwrapScoped(Effect.map(tempDir("verbatim-durable-"), (dir) => SqliteClient.layer({ filename: join(dir, "events.db") }))))
    ))
})

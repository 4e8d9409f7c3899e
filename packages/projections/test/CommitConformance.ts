/** Side writes in the group commit, on every backend: they share the appends' transaction, keep their order and fail alone. */
import { expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql/SqlClient"
import { Committer } from "@verbatim/projections/Commit"
import { EventStore } from "@verbatim/projections/EventStore"
import type { Services } from "@verbatim/projections/Store"
import { messageReceived } from "@verbatim/testkit/Given"
import { Effect, Either } from "effect"
import type { Layer } from "effect"

const countOf = (stream: string) =>
  Effect.flatMap(SqlClient, (sql) =>
    Effect.map(sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM events WHERE stream = ${stream}`, (rows) => Number(rows[0]!.n)))

/** Register the suite for one backend. */
export const commitConformance = (layer: Layer.Layer<Services, unknown>) =>
  it.layer(layer)((it) => {
    it.effect("a side write commits in the transaction of the appends queued beside it, after them, and answers its own result", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        const committer = yield* Committer
        // Submitted first: in a transaction of its own it would run before the appends and count none.
        const [seen] = yield* Effect.all([
          committer.alongside("count", countOf("side-a")),
          store.append("side-a", 0, [messageReceived("a", 1, "one")]),
          store.append("side-a", 1, [messageReceived("a", 2, "two")])
        ], { concurrency: "unbounded" })
        expect(seen).toBe(2)
      }))

    it.effect("a batch's side writes run in order of key, and one key's in the order they were submitted", () =>
      Effect.gen(function*() {
        const committer = yield* Committer
        const ran: Array<string> = []
        const write = (key: string, label: string) => committer.alongside(key, Effect.sync(() => ran.push(label)))
        yield* Effect.all([write("b", "b1"), write("a", "a1"), write("b", "b2"), write("a", "a2")], { concurrency: "unbounded" })
        expect(ran).toEqual(["a1", "a2", "b1", "b2"])
      }))

    it.effect("a side write that fails fails alone: the appends and side writes beside it commit", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        const committer = yield* Committer
        const sql = yield* SqlClient
        const [kept, broken, fine] = yield* Effect.all([
          Effect.either(store.append("side-f", 0, [messageReceived("f", 1, "kept")])),
          Effect.either(committer.alongside("broken", sql`INSERT INTO no_such_table VALUES (1)`)),
          Effect.either(committer.alongside("fine", Effect.succeed("fine")))
        ], { concurrency: "unbounded" })
        expect([kept._tag, Either.isLeft(broken) ? broken.left._tag : "committed", fine]).toEqual(["Right", "StoreError", Either.right("fine")])
        expect(yield* countOf("side-f")).toBe(1)
      }))
  })

/** The event store's conformance suite, run against every backend by the test files that import it. */
import { expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql/SqlClient"
import { AppendConflict, AppendResult, EventStore, start } from "@verbatim/projections/EventStore"
import type { StoreError } from "@verbatim/projections/EventStore"
import type { Services } from "@verbatim/projections/Store"
import { encode } from "@verbatim/projections/EventCodec"
import { given, messageEdited, messageReceived, noteRecorded, planProduced, sessionOpened, thenStream } from "@verbatim/testkit/Given"
import { Cause, Chunk, Clock, DateTime, Effect, Either, Exit, Stream, TestClock } from "effect"
import type { Layer } from "effect"

const key = (id: string) => ({ provider: "telegram" as const, providerMessageId: id })

/** Register the suite for one backend. */
export const storeConformance = (layer: Layer.Layer<Services, unknown>) =>
  it.layer(layer)((it) => {
    it.effect("appends at versions 1..n with metadata and the caller's clock time", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        yield* TestClock.setTime(1_767_225_600_000)
        const result = yield* store.append("session-a", 0, [sessionOpened("a"), messageReceived("a", 1, "hello")], {
          metadata: { correlationId: "req-1" }
        })
        const recorded = yield* store.readStream("session-a")
        expect(result._tag).toBe("Appended")
        expect(recorded.map((r) => ({ stream: r.stream, version: r.version, event: r.event, metadata: r.metadata })))
          .toEqual([
            { stream: "session-a", version: 1, event: sessionOpened("a"), metadata: { correlationId: "req-1", causationId: null } },
            { stream: "session-a", version: 2, event: messageReceived("a", 1, "hello"), metadata: { correlationId: "req-1", causationId: null } }
          ])
        expect(result).toEqual(AppendResult.Appended({ positions: recorded.map((r) => r.position), version: 2 }))
        expect(recorded.map((r) => DateTime.toEpochMillis(r.recordedAt))).toEqual([1_767_225_600_000, 1_767_225_600_000])
        expect(yield* store.streamVersion("session-a")).toBe(2)
      }))

    it.effect("two writers at the same expected version: one wins, the other gets a typed conflict", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        const [first, second] = yield* Effect.all(
          [
            Effect.either(store.append("session-b", 0, [messageReceived("b", 1, "one")])),
            Effect.either(store.append("session-b", 0, [messageReceived("b", 1, "two")]))
          ],
          { concurrency: 2 }
        )
        const outcomes = [first, second].map((e) => (Either.isRight(e) ? e.right._tag : e.left._tag)).sort()
        expect(outcomes).toEqual(["AppendConflict", "Appended"])
        const loser = [first, second].find(Either.isLeft)!.left
        expect(loser).toEqual(new AppendConflict({ stream: "session-b", expectedVersion: 0, actualVersion: 1 }))
        expect((yield* thenStream("session-b")).length).toBe(1)
      }))

    it.effect("a recorded idempotency key makes the whole append a no-op", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        const first = yield* store.append("session-c", "any", [messageReceived("c", 1, "once")], {
          idempotencyKeys: [key("c-1")]
        })
        const again = yield* store.append("session-c", "any", [messageReceived("c", 1, "twice")], {
          idempotencyKeys: [key("c-1")]
        })
        const mixed = yield* store.append("session-c", 1, [messageReceived("c", 2, "new")], {
          idempotencyKeys: [key("c-2"), key("c-1")]
        })
        expect(first._tag).toBe("Appended")
        expect(again).toEqual(AppendResult.AlreadyRecorded({ keys: [key("c-1")] }))
        expect(mixed).toEqual(AppendResult.AlreadyRecorded({ keys: [key("c-1")] }))
        expect(yield* thenStream("session-c")).toEqual([{ version: 1, event: messageReceived("c", 1, "once") }])
        expect([yield* store.isRecorded(key("c-1")), yield* store.isRecorded(key("c-2"))]).toEqual([true, false])
      }))

    it.effect("a redelivery with a stale expected version is still reported as already recorded", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        yield* store.append("session-d", 0, [messageReceived("d", 1, "x")], { idempotencyKeys: [key("d-1")] })
        const again = yield* store.append("session-d", 0, [messageReceived("d", 1, "x")], { idempotencyKeys: [key("d-1")] })
        expect(again).toEqual(AppendResult.AlreadyRecorded({ keys: [key("d-1")] }))
      }))

    it.effect("concurrent appends share transactions, and a conflict in a batch fails alone", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        yield* given(["session-e0", [messageReceived("e0", 1, "taken")]])
        const appends = Array.from({ length: 40 }, (_, i) =>
          i === 17
            ? store.append("session-e0", 0, [messageReceived("e0", 1, "late")])
            : store.append(`session-e${i + 1}`, 0, [messageReceived(`e${i + 1}`, 1, `m${i}`)], {
              idempotencyKeys: [key(`e-${i}`)]
            }))
        const results = yield* Effect.all(appends.map(Effect.either), { concurrency: "unbounded" })
        const failed = results.flatMap((r, i) => (Either.isLeft(r) ? [[i, r.left._tag]] : []))
        expect(failed).toEqual([[17, "AppendConflict"]])
        const sql = yield* SqlClient
        const rows = yield* sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM events WHERE stream LIKE 'session-e%'`
        expect(Number(rows[0]!.n)).toBe(40)
      }))

    it.effect("an append failing inside a shared batch fails alone; the batch's other appends commit", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        yield* given(["session-x0", [messageReceived("x0", 1, "taken"), noteRecorded("x0", "note-x0", [1])]])
        const appends = Array.from({ length: 30 }, (_, i) =>
          i === 11
            ? store.append("session-x0", 2, [noteRecorded("x0", "note-x0-again", [1])])
            : store.append(`session-x${i + 1}`, 0, [messageReceived(`x${i + 1}`, 1, `m${i}`)], {
              idempotencyKeys: [key(`x-${i}`)]
            }))
        const results = yield* Effect.all(appends.map(Effect.either), { concurrency: "unbounded" })
        const failed = results.flatMap((r, i) => (Either.isLeft(r) ? [[i, r.left._tag === "StoreError" ? r.left.reason : r.left._tag]] : []))
        expect(failed).toEqual([[11, "duplicate-source"]])
        const sql = yield* SqlClient
        const rows = yield* sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM events WHERE stream LIKE 'session-x%'`
        expect(Number(rows[0]!.n)).toBe(2 + 29)
      }))

    it.effect("appendBatch decides each append in order as append would: chained versions, a recorded key, a conflict alone", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        yield* store.append("batch-b", 0, [sessionOpened("b")], { idempotencyKeys: [key("b-0")] })
        const outcomes = yield* store.appendBatch([
          { stream: "batch-a", expectedVersion: 0, events: [sessionOpened("a"), messageReceived("a", 1, "first")], options: { idempotencyKeys: [key("a-1")] } },
          { stream: "batch-a", expectedVersion: 2, events: [messageReceived("a", 2, "second")], options: { idempotencyKeys: [key("a-2")] } },
          { stream: "batch-b", expectedVersion: 1, events: [messageReceived("b", 1, "again")], options: { idempotencyKeys: [key("b-0")] } },
          { stream: "batch-b", expectedVersion: 0, events: [messageReceived("b", 1, "stale")] },
          { stream: "batch-c", expectedVersion: 0, events: [sessionOpened("c")] }
        ])
        const described = outcomes.map((exit) => Exit.isSuccess(exit) ? exit.value : Cause.squash(exit.cause))
        const a = yield* store.readStream("batch-a")
        const c = yield* store.readStream("batch-c")
        expect(described).toEqual([
          AppendResult.Appended({ positions: a.slice(0, 2).map((r) => r.position), version: 2 }),
          AppendResult.Appended({ positions: [a[2]!.position], version: 3 }),
          AppendResult.AlreadyRecorded({ keys: [key("b-0")] }),
          new AppendConflict({ stream: "batch-b", expectedVersion: 0, actualVersion: 1 }),
          AppendResult.Appended({ positions: [c[0]!.position], version: 1 })
        ])
        expect(a.map((r) => r.event)).toEqual([sessionOpened("a"), messageReceived("a", 1, "first"), messageReceived("a", 2, "second")])
        expect((yield* store.readStream("batch-b")).map((r) => r.event)).toEqual([sessionOpened("b")])
        expect(yield* store.appendBatch([])).toEqual([])
      }))

    it.effect("two concurrent appends with the same key: one is appended, the other already recorded", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        const results = yield* Effect.all(
          [1, 2].map((n) =>
            store.append("session-y", "any", [messageReceived("y", n, `copy ${n}`)], { idempotencyKeys: [key("y-1")] })),
          { concurrency: "unbounded" }
        )
        expect(results.map((r) => r._tag).sort()).toEqual(["AlreadyRecorded", "Appended"])
        expect((yield* thenStream("session-y")).length).toBe(1)
      }))

    it.effect("readAll pages through every event in order, from any checkpoint", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        yield* given(["session-f", [1, 2, 3, 4, 5].map((seq) => messageReceived("f", seq, `t${seq}`))])
        const all = Chunk.toArray(yield* Stream.runCollect(store.readAll(start, { pageSize: 2 })))
        const mine = all.filter((r) => r.stream === "session-f")
        expect(mine.map((r) => r.version)).toEqual([1, 2, 3, 4, 5])
        const positions = all.map((r) => r.position)
        expect(positions).toEqual([...positions].sort((a, b) => a - b))
        const third = mine[2]!
        const rest = yield* Stream.runCollect(store.readAll({ txId: third.txId, position: third.position }, { pageSize: 3 }))
        expect(Chunk.toArray(rest).filter((r) => r.stream === "session-f").map((r) => r.version)).toEqual([4, 5])
      }))

    it.effect("a catch-up subscription sees events appended after it started", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        const seen = yield* store.subscribe(start, { pollInterval: 20 }).pipe(
          Stream.filter((r) => r.stream === "session-g"),
          Stream.take(3),
          Stream.runCollect,
          Effect.fork
        )
        yield* given(["session-g", [messageReceived("g", 1, "a")]])
        yield* Effect.sleep(50)
        yield* given(["session-g", [messageReceived("g", 2, "b"), messageReceived("g", 3, "c")]])
        const events = yield* seen.await.pipe(Effect.flatten)
        expect(Chunk.toArray(events).map((r) => r.event)).toEqual([
          messageReceived("g", 1, "a"),
          messageReceived("g", 2, "b"),
          messageReceived("g", 3, "c")
        ])
      }).pipe(Effect.withClock(Clock.make())))

    it.effect("reads and subscriptions of some types see those types only, in order, the later ones too", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        const from = yield* store.head
        yield* given(["session-t", [sessionOpened("t"), messageReceived("t", 1, "a")]])
        expect(Chunk.toArray(yield* Stream.runCollect(store.readAll(from, { types: ["SessionOpened"], pageSize: 1 })))
          .map((r) => r.event)).toEqual([sessionOpened("t")])
        const seen = yield* store.subscribe(from, { pollInterval: 10, pageSize: 1, types: ["MessageReceived"] }).pipe(
          Stream.take(3),
          Stream.runCollect,
          Effect.fork
        )
        yield* Effect.sleep(40)
        yield* given(["session-u", [sessionOpened("u")]])
        yield* Effect.sleep(40)
        yield* given(["session-u", [messageReceived("u", 1, "b"), messageReceived("u", 2, "c")]])
        const events = yield* seen.await.pipe(Effect.flatten)
        expect(Chunk.toArray(events).map((r) => r.event)).toEqual([
          messageReceived("t", 1, "a"),
          messageReceived("u", 1, "b"),
          messageReceived("u", 2, "c")
        ])
      }).pipe(Effect.withClock(Clock.make())))

    it.effect("a v0 MessageReceived payload is upcast on read", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const current = messageReceived("h", 1, "from v0") as { message: { id: string; receivedAt: DateTime.Utc } }
        const v0 = {
          _tag: "MessageReceived",
          message: {
            id: "h/1", sessionId: "h", seq: 1, provider: "telegram", providerMessageId: "p-h-1",
            sender: "telegram:100000001", chat: "100000001", text: "from v0", receivedAt: DateTime.formatIso(current.message.receivedAt)
          }
        }
        yield* sql`INSERT INTO events ${sql.insert({
          stream: "session-h", version: 1, type: "MessageReceived", schema_version: 0,
          payload: JSON.stringify(v0), metadata: JSON.stringify({ correlationId: null, causationId: null }), recorded_at: 0
        })}`
        expect(yield* thenStream("session-h")).toEqual([{ version: 1, event: messageReceived("h", 1, "from v0") }])
      }))

    it.effect("a v1 MessageReceived and a v1 MessageEdited are upcast on read: no attachments, links or album", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const { attachments: _a, links: _l, mediaGroup: _g, ...v1Message } = JSON.parse(encode(messageReceived("m", 1, "from v1")).payload)
          .message as Record<string, unknown>
        const { links: _links, ...v1Edit } = JSON.parse(encode(messageEdited("m", 1, "edited in v1", 5)).payload) as Record<string, unknown>
        yield* sql`INSERT INTO events ${
          sql.insert([
            { version: 1, type: "MessageReceived", payload: JSON.stringify({ _tag: "MessageReceived", message: v1Message }) },
            { version: 2, type: "MessageEdited", payload: JSON.stringify(v1Edit) }
          ].map((row) => ({
            stream: "session-m", schema_version: 1, metadata: JSON.stringify({ correlationId: null, causationId: null }), recorded_at: 0, ...row
          })))
        }`
        expect(yield* thenStream("session-m")).toEqual([
          { version: 1, event: messageReceived("m", 1, "from v1") },
          { version: 2, event: messageEdited("m", 1, "edited in v1", 5) }
        ])
      }))

    it.effect("a v1 PlanProduced is upcast on read: its one superseded plan, or none, becomes a list, and its duration is unknown", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const { durationMs: _d, supersedes: _, ...v1 } = JSON.parse(encode(planProduced("k", "p-2", 3)).payload) as Record<string, unknown>
        yield* sql`INSERT INTO events ${
          sql.insert([["p-1", null], ["p-2", "p-1"]].map(([planId, supersedes], i) => ({
            stream: "session-k", version: i + 1, type: "PlanProduced", schema_version: 1,
            payload: JSON.stringify({ ...v1, planId, supersedes }), metadata: JSON.stringify({ correlationId: null, causationId: null }),
            recorded_at: 0
          })))
        }`
        expect(yield* thenStream("session-k")).toEqual([
          { version: 1, event: { ...planProduced("k", "p-1", 3), durationMs: null } },
          { version: 2, event: { ...planProduced("k", "p-2", 3, ["p-1"]), durationMs: null } }
        ])
      }))

    it.effect("a v2 PlanProduced is upcast on read: the model call's duration was not kept", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const { durationMs: _, ...v2 } = JSON.parse(encode(planProduced("plan-v2", "p-1", 2)).payload) as Record<string, unknown>
        yield* sql`INSERT INTO events ${
          sql.insert([{
            stream: "session-plan-v2", version: 1, type: "PlanProduced", schema_version: 2,
            payload: JSON.stringify(v2), metadata: JSON.stringify({ correlationId: null, causationId: null }), recorded_at: 0
          }])
        }`
        expect(yield* thenStream("session-plan-v2")).toEqual([{ version: 1, event: { ...planProduced("plan-v2", "p-1", 2), durationMs: null } }])
      }))

    it.effect("an event newer than this build is a typed decode error", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const store = yield* EventStore
        yield* sql`INSERT INTO events ${sql.insert({
          stream: "session-i", version: 1, type: "MessageReceived", schema_version: 9,
          payload: "{}", metadata: JSON.stringify({ correlationId: null, causationId: null }), recorded_at: 0
        })}`
        const error = yield* Effect.flip(store.readStream("session-i"))
        expect({ tag: error._tag, reason: (error as StoreError).reason, message: error.message }).toEqual({
          tag: "StoreError", reason: "decode", message: "MessageReceived v9 is newer than this build (v2)"
        })
      }))
  })

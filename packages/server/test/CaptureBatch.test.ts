/**
 * Batched capture over HTTP: webhook requests that arrive together are captured in one batch,
 * and nothing about a batch may lose, double or reorder a message — not a command between two
 * messages, a redelivery racing its original, another writer appending first, nor a store that
 * fails the batch.
 */
import { describe, expect, it } from "@effect/vitest"
import { Command } from "@verbatim/domain/Session/Commands"
import { decide } from "@verbatim/domain/Session/Decide"
import * as State from "@verbatim/domain/Session/State"
import type { SessionId } from "@verbatim/domain/Ids"
import { EventStore, start, StoreError } from "@verbatim/projections/EventStore"
import { Cause, Context, DateTime, Deferred, Effect, Either, Exit, Fiber, Layer, Option, Scope } from "effect"
import { CaptureQueue } from "../src/Inbox/CaptureQueue.js"
import { layer, senderUpdate, telegram, whatsApp } from "./harness.js"
import { text as message } from "./planJobHarness.js"

/** Every session stream: its messages as `seq: text`, and `closed` where it closed. */
const sessions = Effect.flatMap(EventStore, (store) =>
  Effect.map(store.readPage(start, 10_000), (events) => {
    const streams: Record<string, Array<string>> = {}
    for (const { event, stream } of events) {
      const line = event._tag === "MessageReceived" ? `${event.message.seq}: ${event.message.text}` : event._tag === "SessionClosed" ? "closed" : null
      if (line !== null) (streams[stream] ??= []).push(line)
    }
    return streams
  }))

const text = (sender: number, id: number, body: string) => telegram(senderUpdate(sender, id, { text: body }))

const whatsAppMessages = (from: string, messages: ReadonlyArray<readonly [string, string]>) =>
  JSON.stringify({
    object: "whatsapp_business_account",
    entry: [{ id: "1", changes: [{ field: "messages", value: {
      messages: messages.map(([id, body]) => ({ from, id, timestamp: "1767225600", type: "text", text: { body } }))
    } }] }]
  })

const ok = { status: 200, body: "" }

describe("batched capture", () => {
  it.effect("requests arriving together keep each conversation's order; a command between two messages and a racing redelivery too", () =>
    Effect.gen(function*() {
      const answers = yield* Effect.all([
        whatsApp(whatsAppMessages("15550001111", [["wamid.1", "Ana moved to Lyon"], ["wamid.2", "/done"], ["wamid.3", "Tom got the job"]])),
        Effect.forEach([1, 2, 3], (n) => text(100000001, n, `Alice ${n}: Bea likes tea 🍵`)),
        Effect.forEach([1, 2, 3], (n) => text(100000002, n, `Bob ${n}: Cleo moved\u00a0to Faro`)),
        text(100000002, 1, "Bob 1: Cleo moved\u00a0to Faro"),
        text(100000002, 1, "Bob 1: Cleo moved\u00a0to Faro")
      ], { concurrency: "unbounded" })
      expect(answers).toEqual([ok, [ok, ok, ok], [ok, ok, ok], ok, ok])
      expect(yield* sessions).toEqual({
        "session-whatsapp:15550001111:15550001111:1": ["1: Ana moved to Lyon", "closed"],
        "session-whatsapp:15550001111:15550001111:2": ["1: Tom got the job"],
        "session-telegram:100000001:100000001:1": ["1: Alice 1: Bea likes tea 🍵", "2: Alice 2: Bea likes tea 🍵", "3: Alice 3: Bea likes tea 🍵"],
        "session-telegram:100000002:100000002:1": ["1: Bob 1: Cleo moved\u00a0to Faro", "2: Bob 2: Cleo moved\u00a0to Faro", "3: Bob 3: Cleo moved\u00a0to Faro"]
      })
    }).pipe(Effect.provide(layer([]))))

  it.effect("a conversation this process remembers is captured without reading its session again", () => {
    const reads: Array<string> = []
    return Effect.gen(function*() {
      for (const [n, body] of [[1, "Ana moved to Lyon"], [2, "Tom got the job"], [3, "Bea likes tea"]] as const) {
        expect(yield* text(100000001, n, body)).toEqual(ok)
      }
      // The first capture finds the session empty; the two after it are decided on the fold it left.
      expect(reads).toEqual(["session-telegram:100000001:100000001:1"])
      expect(yield* sessions).toEqual({
        "session-telegram:100000001:100000001:1": ["1: Ana moved to Lyon", "2: Tom got the job", "3: Bea likes tea"]
      })
    }).pipe(Effect.provide(layer([], {
      eventStore: (store) =>
        EventStore.of({ ...store, readStream: (stream, after) => Effect.zipRight(Effect.sync(() => reads.push(stream)), store.readStream(stream, after)) })
    })))
  })

  it.effect("another writer appending to the session first: the batch's capture is taken again after it, nothing lost or doubled", () => {
    let raced = false
    const sessionId = "telegram:100000001:100000001:1" as SessionId
    const other = message(99, "from the other instance")
    return Effect.gen(function*() {
      expect(yield* text(100000001, 1, "Ana moved to Lyon")).toEqual(ok)
      expect(yield* text(100000001, 2, "Tom got the job")).toEqual(ok)
      expect(raced).toBe(true)
      expect(yield* sessions).toEqual({
        "session-telegram:100000001:100000001:1": ["1: Ana moved to Lyon", "2: from the other instance", "3: Tom got the job"]
      })
    }).pipe(Effect.provide(layer([], {
      eventStore: (store) =>
        EventStore.of({
          ...store,
          appendBatch: (appends) =>
            Effect.gen(function*() {
              if (!raced && appends.length > 0 && appends[0]!.expectedVersion !== 0) {
                raced = true
                const events = (yield* Effect.orDie(store.readStream(appends[0]!.stream))).map((e) => e.event)
                const now = yield* DateTime.now
                const decided = decide(State.fold(events), Command.Capture({ sessionId, message: other, fromEdit: null, now }))
                yield* Effect.orDie(store.append(appends[0]!.stream, events.length, Either.getOrThrow(decided)))
              }
              return yield* store.appendBatch(appends)
            })
        })
    })))
  })

  it.effect("a store that refuses the batch: each capture is tried on its own; one still refused answers 500, its redelivery is recorded once", () => {
    let refusals = 2
    const refused = () => refusals-- > 0
    const refusal = new StoreError({ reason: "sql", message: "disk I/O error" })
    return Effect.gen(function*() {
      expect(yield* text(100000001, 1, "Ana moved to Lyon")).toEqual({ status: 500, body: "" })
      expect(yield* text(100000001, 1, "Ana moved to Lyon")).toEqual(ok)
      expect(yield* text(100000001, 1, "Ana moved to Lyon")).toEqual(ok)
      expect(yield* text(100000001, 2, "Tom got the job")).toEqual(ok)
      expect(yield* sessions).toEqual({ "session-telegram:100000001:100000001:1": ["1: Ana moved to Lyon", "2: Tom got the job"] })
    }).pipe(Effect.provide(layer([], {
      eventStore: (store) =>
        EventStore.of({
          ...store,
          append: (stream, version, events, options) => refused() ? Effect.fail(refusal) : store.append(stream, version, events, options),
          appendBatch: (appends) => refused() ? Effect.succeed(appends.map(() => Exit.fail(refusal))) : store.appendBatch(appends)
        })
    })))
  })

  it.live("an item handed off to run on its own and stopped by shutdown leaves its request unacknowledged (500), to be delivered again", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const appending = yield* Deferred.make<void>()
      const services = yield* Layer.buildWithScope(layer([], {
        // Every single append hangs, as on a store that stopped answering: `/done` runs on its own, one by one.
        eventStore: (store) => EventStore.of({ ...store, append: () => Effect.zipRight(Deferred.succeed(appending, undefined), Effect.never) })
      }), scope)
      const queue = Context.get(services, CaptureQueue)
      const answering = yield* Effect.fork(queue.submit({
        provider: "telegram",
        path: "/webhooks/telegram",
        accepted: { items: [message(7, "/done")], refusals: [] },
        receivedAt: 0
      }))
      yield* Deferred.await(appending)
      // Shutdown does not wait on the stuck item: it is interrupted.
      const closed = yield* Effect.timeout(Scope.close(scope, Exit.void), "10 seconds").pipe(Effect.option)
      expect(Option.isSome(closed)).toBe(true)
      const answer = yield* Fiber.join(answering)
      expect({ status: answer.status, body: answer.body, outcome: answer.outcome, interrupted: answer.failure !== null && Cause.isInterruptedOnly(answer.failure) })
        .toEqual({ status: 500, body: null, outcome: "error", interrupted: true })
    }))
})

/**
 * A fake Anthropic Message Batches API on 127.0.0.1 for the real SDK: `POST /v1/messages/batches`
 * takes the next scripted batch, `GET /v1/messages/batches/:id` answers `in_progress` for the
 * scripted number of polls and then `ended` with its `results_url`, which serves the results as
 * JSONL. Times are fixed, so a batch's wall time is exactly what its script says.
 */
import { Context, Effect, Layer, type Scope } from "effect"
import { fakeMessage, type FakeUsage, toolName } from "./internal/fakeMessage.js"
import { type JsonResponse, startJsonServer } from "./internal/jsonServer.js"

/** One request of a batch, as the client sent it. */
export interface FakeBatchRequest {
  readonly custom_id: string
  readonly params: { readonly model: string; readonly messages: ReadonlyArray<{ readonly content: string }> }
}

/** What becomes of one request. */
export type FakeEntry =
  | { readonly type: "succeeded"; readonly input: unknown; readonly usage: FakeUsage }
  | { readonly type: "errored"; readonly errorType: string }
  | { readonly type: "expired" }
  | { readonly type: "canceled" }

/** One scripted batch. */
export interface FakeBatch {
  /** `in_progress` answers before it ends; `"hold"`: until the test calls `release`. */
  readonly polls: number | "hold"
  /** From `created_at` to `ended_at`. */
  readonly seconds: number
  readonly answer: (request: FakeBatchRequest) => FakeEntry
}

/** A request the fake received. */
export interface BatchCall {
  readonly method: string
  readonly path: string
}

interface Held {
  readonly id: string
  readonly created: number
  readonly script: FakeBatch
  readonly requests: ReadonlyArray<FakeBatchRequest>
  polls: number
}

const base = Date.UTC(2026, 0, 1)
const iso = (ms: number) => new Date(ms).toISOString()

const batchBody = (held: Held, ended: boolean, origin: string) => {
  const counts = { processing: 0, succeeded: 0, errored: 0, canceled: 0, expired: 0 }
  for (const r of held.requests) {
    if (ended) counts[held.script.answer(r).type] += 1
    else counts.processing += 1
  }
  return {
    id: held.id,
    type: "message_batch",
    processing_status: ended ? "ended" : "in_progress",
    request_counts: counts,
    created_at: iso(held.created),
    ended_at: ended ? iso(held.created + held.script.seconds * 1000) : null,
    expires_at: iso(held.created + 86_400_000),
    archived_at: null,
    cancel_initiated_at: null,
    results_url: ended ? `${origin}/v1/messages/batches/${held.id}/results` : null
  }
}

const resultLine = (held: Held, r: FakeBatchRequest, n: number) => {
  const entry = held.script.answer(r)
  switch (entry.type) {
    case "succeeded": {
      const tool = { type: "tool_use", id: `toolu_batch_${n}`, name: toolName(r.params), input: entry.input }
      return { custom_id: r.custom_id, result: { type: "succeeded", message: fakeMessage(`msg_batch_${n}`, r.params.model, [tool], "tool_use", entry.usage) } }
    }
    case "errored":
      return { custom_id: r.custom_id, result: { type: "errored", error: { type: "error", error: { type: entry.errorType, message: `fake ${entry.errorType}` } } } }
    default:
      return { custom_id: r.custom_id, result: { type: entry.type } }
  }
}

const error = (status: number, type: string): JsonResponse => ({ status, body: { type: "error", error: { type, message: `fake ${type}` } } })

export class FakeAnthropicBatches extends Context.Tag("@verbatim/testkit/FakeAnthropicBatches")<
  FakeAnthropicBatches,
  {
    /** `http://127.0.0.1:<port>`, for `ANTHROPIC_BASE_URL`. */
    readonly baseUrl: string
    readonly script: (...batches: ReadonlyArray<FakeBatch>) => Effect.Effect<void>
    /** Held batches end at their next poll. */
    readonly release: Effect.Effect<void>
    readonly calls: Effect.Effect<ReadonlyArray<BatchCall>>
    /** Every batch created, with the custom ids it holds, in order. */
    readonly batches: Effect.Effect<ReadonlyArray<{ readonly id: string; readonly customIds: ReadonlyArray<string> }>>
  }
>() {
  static readonly make: Effect.Effect<FakeAnthropicBatches["Type"], never, Scope.Scope> = Effect.gen(function*() {
    const queue: Array<FakeBatch> = []
    const calls: Array<BatchCall> = []
    const held: Array<Held> = []
    let released = false
    const baseUrl = yield* startJsonServer((request) => {
      calls.push({ method: request.method, path: request.path })
      const origin = `http://${request.headers.host}`
      if (request.method === "POST" && request.path === "/v1/messages/batches") {
        const script = queue.shift()
        if (script === undefined) return error(500, "api_error")
        const requests = (request.body as { requests: ReadonlyArray<FakeBatchRequest> }).requests
        const batch: Held = { id: `msgbatch_fake_${held.length + 1}`, created: base + held.length * 3_600_000, script, requests, polls: 0 }
        held.push(batch)
        return { status: 200, body: batchBody(batch, false, origin) }
      }
      const match = /^\/v1\/messages\/batches\/([^/?]+)(\/results)?/.exec(request.path)
      const batch = held.find((b) => b.id === match?.[1])
      if (request.method !== "GET" || batch === undefined) return error(404, "not_found_error")
      const ended = batch.script.polls === "hold" ? released : batch.polls >= batch.script.polls
      if (match?.[2] === undefined) {
        if (!ended) batch.polls += 1
        return { status: 200, body: batchBody(batch, ended, origin) }
      }
      if (!ended) return error(400, "invalid_request_error")
      const lines = batch.requests.map((r, i) => JSON.stringify(resultLine(batch, r, i + 1)) + "\n").join("")
      return { status: 200, body: null, bytes: new TextEncoder().encode(lines), headers: { "content-type": "application/binary" } }
    })
    return FakeAnthropicBatches.of({
      baseUrl,
      script: (...batches) => Effect.sync(() => void queue.push(...batches)),
      release: Effect.sync(() => void (released = true)),
      calls: Effect.sync(() => [...calls]),
      batches: Effect.sync(() => held.map((b) => ({ id: b.id, customIds: b.requests.map((r) => r.custom_id) })))
    })
  })

  static readonly layer: Layer.Layer<FakeAnthropicBatches> = Layer.scoped(FakeAnthropicBatches, FakeAnthropicBatches.make)
}

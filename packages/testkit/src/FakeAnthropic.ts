/**
 * A fake Anthropic Messages API on 127.0.0.1 for the real SDK to talk to: each request takes the
 * next scripted reply (in the real wire format) and is recorded with its parsed body.
 */
import { Context, Effect, Layer, type Scope } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { fakeMessage, type FakeUsage, toolName } from "./internal/fakeMessage.js"
import { serveOnLoopback } from "./internal/jsonServer.js"

export type { FakeUsage }

/** One scripted answer. */
export type FakeReply =
  | { readonly _tag: "ToolUse"; readonly input: unknown; readonly stopReason: string; readonly usage: FakeUsage }
  | { readonly _tag: "Refusal" }
  /** An answer in prose, with no tool call. */
  | { readonly _tag: "Text"; readonly text: string }
  | {
    readonly _tag: "Error"
    readonly status: number
    readonly type: string
    readonly headers: Readonly<Record<string, string>>
  }
  /** Never answers; the client's timeout must end the call. */
  | { readonly _tag: "Hang" }
  /** Answers `reply` after `millis`, as a model that takes its time. */
  | { readonly _tag: "Delayed"; readonly millis: number; readonly reply: FakeReply }

const error = (status: number, type: string, headers: Readonly<Record<string, string>> = {}): FakeReply => ({
  _tag: "Error",
  status,
  type,
  headers
})

const rawMark = "\u0000raw-json:"

/**
 * A value written into the reply as this JSON text, verbatim: numbers `JSON.stringify` cannot
 * produce, such as `1e400`, which `JSON.parse` reads as `Infinity`.
 */
export const rawJson = (text: string): string => `${rawMark}${text}`

const serialise = (payload: unknown) =>
  JSON.stringify(payload).replace(/"\\u0000raw-json:([^"]*)"/g, (_, text: string) => text)

/** Builders for every fault the planner must survive. */
export const FakeReply = {
  /** A `record_plan` call with this input (a plan, or anything that should fail to decode). */
  toolUse: (input: unknown, usage: FakeUsage = {}): FakeReply => ({ _tag: "ToolUse", input, stopReason: "tool_use", usage }),
  /** A tool call cut off at `max_tokens`: the input is whatever had been produced. */
  maxTokens: (partialInput: unknown): FakeReply => ({ _tag: "ToolUse", input: partialInput, stopReason: "max_tokens", usage: {} }),
  refusal: (): FakeReply => ({ _tag: "Refusal" }),
  text: (text: string): FakeReply => ({ _tag: "Text", text }),
  rateLimited: (retryAfter: Readonly<Record<string, string>>): FakeReply => error(429, "rate_limit_error", retryAfter),
  overloaded: (): FakeReply => error(529, "overloaded_error"),
  serverError: (): FakeReply => error(500, "api_error"),
  badRequest: (): FakeReply => error(400, "invalid_request_error"),
  unauthorized: (): FakeReply => error(401, "authentication_error"),
  error,
  hang: (): FakeReply => ({ _tag: "Hang" }),
  after: (millis: number, reply: FakeReply): FakeReply => ({ _tag: "Delayed", millis, reply })
}

/** The body as JSON, or as the raw text when it is not JSON (a test then sees exactly what arrived). */
const parseBody = (body: string): unknown => {
  try {
    return body === "" ? null : JSON.parse(body)
  } catch {
    return body
  }
}

/** What the fake received: the parts of a request a test asserts on. */
export interface ReceivedRequest {
  readonly method: string
  readonly path: string
  /** `x-api-key`, the older way SDKs send the key. */
  readonly apiKey: string | null
  /** `authorization`, where SDK 1.x sends `Bearer <key>`. */
  readonly authorization: string | null
  readonly body: unknown
}

/** The running fake. */
export class FakeAnthropic extends Context.Tag("@verbatim/testkit/FakeAnthropic")<
  FakeAnthropic,
  {
    /** `http://127.0.0.1:<port>`, for `ANTHROPIC_BASE_URL`. */
    readonly baseUrl: string
    readonly script: (...replies: ReadonlyArray<FakeReply>) => Effect.Effect<void>
    readonly requests: Effect.Effect<ReadonlyArray<ReceivedRequest>>
  }
>() {
  /** Starts on a free port; stopping the scope drops every open connection, hung ones included. */
  static readonly make: Effect.Effect<FakeAnthropic["Type"], never, Scope.Scope> = Effect.gen(function*() {
    const queue: Array<FakeReply> = []
    const received: Array<ReceivedRequest> = []
    const handle = (request: IncomingMessage, body: string, response: ServerResponse) => {
      const parsed = parseBody(body)
      received.push({
        method: request.method ?? "",
        path: request.url ?? "",
        apiKey: (request.headers["x-api-key"] as string | undefined) ?? null,
        authorization: request.headers.authorization ?? null,
        body: parsed
      })
      const n = received.length
      const model = (parsed as { model?: string } | null)?.model ?? "unknown"
      const send = (status: number, payload: unknown, headers: Readonly<Record<string, string>> = {}) => {
        response.writeHead(status, { "content-type": "application/json", "request-id": `req_fake_${n}`, ...headers })
        response.end(serialise(payload))
      }
      // As the real API does: Claude Sonnet 5.5 refuses a forced tool choice before any scripted reply.
      const choice = (parsed as { tool_choice?: { type?: string } } | null)?.tool_choice?.type
      if (model.startsWith("claude-sonnet-5-5") && (choice === "tool" || choice === "any")) {
        return send(400, {
          type: "error",
          error: { type: "invalid_request_error", message: `tool_choice.type "${choice}" is not supported on ${model}; use "auto"` }
        })
      }
      const message = (content: ReadonlyArray<unknown>, stopReason: string, usage: FakeUsage) =>
        fakeMessage(`msg_fake_${n}`, model, content, stopReason, usage)
      const answer = (reply: FakeReply): void => {
        switch (reply._tag) {
          case "Hang":
            return
          case "Delayed":
            return void setTimeout(() => answer(reply.reply), reply.millis)
          case "ToolUse": {
            const tool = { type: "tool_use", id: `toolu_fake_${n}`, name: toolName(parsed), input: reply.input }
            return send(200, message([tool], reply.stopReason, reply.usage))
          }
          case "Refusal":
            return send(200, message([{ type: "text", text: "I can't help with that.", citations: null }], "refusal", {}))
          case "Text":
            return send(200, message([{ type: "text", text: reply.text, citations: null }], "end_turn", {}))
          case "Error":
            return send(reply.status, { type: "error", error: { type: reply.type, message: `fake ${reply.type}` } }, reply.headers)
        }
      }
      answer(queue.shift() ?? error(500, "api_error", { "x-fake": "script-exhausted" }))
    }
    const baseUrl = yield* serveOnLoopback(handle)
    return FakeAnthropic.of({
      baseUrl,
      script: (...replies) => Effect.sync(() => void queue.push(...replies)),
      requests: Effect.sync(() => [...received])
    })
  })

  static readonly layer: Layer.Layer<FakeAnthropic> = Layer.scoped(FakeAnthropic, FakeAnthropic.make)
}

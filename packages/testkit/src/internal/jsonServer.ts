/** HTTP servers on 127.0.0.1 for the fake provider and model APIs, closed with their scope. */
import { Effect, type Scope } from "effect"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** A request as the fakes see it: body parsed as JSON (null when empty or not JSON). */
export interface JsonRequest {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
}

export interface JsonResponse {
  readonly status: number
  readonly body: unknown
  readonly headers?: Readonly<Record<string, string>>
  /** Sent as the body instead of `body`'s JSON (a file download); `headers` gives its type. */
  readonly bytes?: Uint8Array
}

const parse = (text: string): unknown => {
  try {
    return text === "" ? null : JSON.parse(text)
  } catch {
    return null
  }
}

/**
 * An HTTP server on a free port of 127.0.0.1, closed with its scope (open connections dropped,
 * hung ones included): `handle` gets each request with its whole body as text and as bytes. Returns
 * `http://127.0.0.1:<port>`.
 */
export const serveOnLoopback = (
  handle: (request: IncomingMessage, body: string, response: ServerResponse, raw: Buffer) => void
): Effect.Effect<string, never, Scope.Scope> =>
  Effect.gen(function*() {
    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const raw = Buffer.concat(chunks)
        handle(request, raw.toString("utf8"), response, raw)
      })
    })
    yield* Effect.acquireRelease(
      Effect.async<void>((resume) => {
        server.listen(0, "127.0.0.1", () => resume(Effect.void))
      }),
      () =>
        Effect.async<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    )
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

const send = (response: ServerResponse, reply: JsonResponse) => {
  if (reply.bytes !== undefined) {
    response.writeHead(reply.status, { "content-type": "application/octet-stream", "content-length": reply.bytes.length, ...reply.headers })
    response.end(reply.bytes)
    return
  }
  response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers })
  response.end(JSON.stringify(reply.body))
}

/**
 * Starts on a free port and returns `http://127.0.0.1:<port>`; every request is answered by
 * `handle`, at once or when its promise settles (a response a test holds back).
 */
export const startJsonServer = (
  handle: (request: JsonRequest) => JsonResponse | Promise<JsonResponse>
): Effect.Effect<string, never, Scope.Scope> =>
  serveOnLoopback((request, body, response) => {
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === "string") headers[name] = value
    }
    const reply = handle({ method: request.method ?? "", path: request.url ?? "", headers, body: parse(body) })
    if (reply instanceof Promise) void reply.then((settled) => send(response, settled))
    else send(response, reply)
  })

/**
 * The two webhook POSTs, served by a plain `node:http` handler ahead of the `HttpApi` app (which
 * still describes them in the contract and `/openapi.json`, and serves everything else).
 *
 * Why: measured with `npm run bench:http-floor`, the `HttpApi` routing cost about 0.5 ms of CPU
 * per webhook before any capture work (a fiber, context, middleware and response encoding per
 * request), more than the whole budget of a capture. Here a request costs no fiber, span or
 * schema work of its own: its secret or signature is checked and its body read and decoded with
 * plain functions (`Intake`), and its items join the capture queue, whose single consumer
 * captures everything queued in a turn as one batch and answers each request when its batch has
 * committed. See BENCHMARKS.md, "Batched capture".
 */
import type { ChatProvider } from "@verbatim/domain/Ids"
import { Duration, Effect, Either, Exit, Runtime } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { CaptureQueue } from "../Inbox/CaptureQueue.js"
import type { ServerSettings } from "../ServerConfig.js"
import { webhookChecks } from "../Providers/WebhookAuth.js"
import { checkHeaders, fromBody, type Refusal, tooLarge, webhookPaths } from "../Inbox/Intake.js"
import { readIncoming } from "./RawBody.js"
import { type Answer, bodyText, record, refused } from "../Inbox/WebhookAnswer.js"

export type NodeListener = (request: IncomingMessage, response: ServerResponse) => void

const providers = new Map<string, ChatProvider>(Object.entries(webhookPaths))

const pathOf = (url: string | undefined) => {
  const path = url ?? "/"
  const query = path.indexOf("?")
  return query === -1 ? path : path.slice(0, query)
}

/** Answer; `close` ends the connection after it (only ever after the whole body was read). */
const send = (response: ServerResponse, answer: Answer, close: boolean) => {
  if (response.headersSent || response.destroyed) return
  if (close) response.shouldKeepAlive = false
  if (answer.body === null) {
    response.writeHead(answer.status, { "content-length": "0" })
    return void response.end()
  }
  const text = bodyText(answer.body)
  response.writeHead(answer.status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  response.end(text)
}

/**
 * After a refusal sent before the body was read (a wrong secret, a declared length over the
 * limit), the rest of the body is read and dropped rather than the connection closed: closing on
 * a client still sending resets the connection, and the client may lose the answer it was sent
 * (RFC 9112, section 9.6). The connection stays open for the next request once the body has
 * ended; a body that has not ended within `lingerMs` has its connection closed. Nothing of it is
 * kept.
 */
const drainAfterAnswer = (request: IncomingMessage, lingerMs: number) => {
  const timer = setTimeout(() => request.socket.destroy(), lingerMs).unref()
  const done = () => clearTimeout(timer)
  request.once("end", done)
  request.once("close", done)
  request.resume()
}

/** When the service stops before a request's batch is taken: the provider delivers it again. */
const stopping: Answer = { status: 500, body: null, outcome: "error", failure: null }

/** The front over `next`, the app's own listener, which gets every other request. */
export const make = (settings: ServerSettings, queue: CaptureQueue["Type"]) => Effect.gen(function*() {
  const runtime = yield* Effect.runtime<never>()
  const clock = yield* Effect.clock
  const checks = webhookChecks(settings)
  const runFork = Runtime.runFork(runtime)
  // Within Node's own request timeout, which would write a 408 after the refusal.
  const lingerMs = Math.min(5000, Duration.toMillis(settings.requestTimeout) / 2)

  return (next: NodeListener): NodeListener => (request, response) => {
    const path = pathOf(request.url)
    const provider = request.method === "POST" ? providers.get(path) : undefined
    if (provider === undefined) return next(request, response)
    const receivedAt = clock.unsafeCurrentTimeMillis()
    const refuse = (refusal: Refusal) => {
      if (!request.complete) drainAfterAnswer(request, lingerMs)
      const answer = refused(refusal)
      send(response, answer, false)
      runFork(record(provider, path, answer, [refusal.reason], clock.unsafeCurrentTimeMillis() - receivedAt))
    }
    const early = checkHeaders(checks, provider, request.headers)
    if (early !== null) return refuse(early)
    readIncoming(request, settings.maxBodyBytes, (read) => {
      // The client went away mid-body: there is no one left to answer, and nothing was sent whole.
      if (read._tag === "Broken") return void response.destroy()
      if (read._tag === "TooLarge") return refuse(tooLarge(settings.maxBodyBytes))
      const accepted = fromBody(checks, provider, request.headers, read.bytes, receivedAt)
      if (Either.isLeft(accepted)) return refuse(accepted.left)
      queue.offer({ provider, path, accepted: accepted.right, receivedAt }, (exit) =>
        send(response, Exit.isSuccess(exit) ? exit.value : stopping, Exit.isFailure(exit)))
    })
  }
})

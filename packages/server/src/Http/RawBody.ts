/** A webhook body as the exact bytes sent, read up to a size limit. */
import type { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { PayloadTooLarge } from "@verbatim/domain/Api"
import { Effect } from "effect"
import type { IncomingMessage } from "node:http"

/** The client went away before the body was complete: there is no one left to answer. */
class BodyBrokenOff extends Error {
  override readonly name = "BodyBrokenOff"
}

/** How reading a body ended: its bytes, over the limit, or broken off (no one left to answer). */
export type BodyRead =
  | { readonly _tag: "Read"; readonly bytes: Uint8Array }
  | { readonly _tag: "TooLarge" }
  | { readonly _tag: "Broken"; readonly error: Error }

/**
 * Read a body from Node's `IncomingMessage` events, up to `limitBytes`: the body is one or a few
 * chunks, and an Effect stream per request costs more than the rest of reading it. Past the limit
 * the rest is read and discarded rather than the connection cut, so the client still gets its
 * 413. Calls `done` once; the returned function stops listening.
 */
export const readIncoming = (incoming: IncomingMessage, limitBytes: number, done: (read: BodyRead) => void): () => void => {
  const announced = Number(incoming.headers["content-length"] ?? "0")
  if (Number.isFinite(announced) && announced > limitBytes) {
    done({ _tag: "TooLarge" })
    return () => {}
  }
  const chunks: Array<Buffer> = []
  let size = 0
  const onData = (chunk: Buffer) => {
    size += chunk.length
    if (size <= limitBytes) chunks.push(chunk)
  }
  const onEnd = () => {
    detach()
    done(size > limitBytes ? { _tag: "TooLarge" } : { _tag: "Read", bytes: Buffer.concat(chunks, size) })
  }
  const onError = (error: Error) => {
    detach()
    done({ _tag: "Broken", error })
  }
  const onClose = () => {
    if (incoming.complete) return
    detach()
    done({ _tag: "Broken", error: new BodyBrokenOff("the client closed the connection before the body was complete") })
  }
  const detach = () => {
    incoming.off("data", onData)
    incoming.off("end", onEnd)
    incoming.off("error", onError)
    incoming.off("close", onClose)
  }
  incoming.on("data", onData)
  incoming.on("end", onEnd)
  incoming.on("error", onError)
  incoming.on("close", onClose)
  return detach
}

/** The body's bytes, or `PayloadTooLarge` when it is longer than `limitBytes`; a body that breaks off mid-way dies. */
export const read = (
  request: HttpServerRequest.HttpServerRequest,
  limitBytes: number
): Effect.Effect<Uint8Array, PayloadTooLarge> =>
  Effect.async<Uint8Array, PayloadTooLarge>((resume) =>
    Effect.sync(readIncoming(NodeHttpServerRequest.toIncomingMessage(request), limitBytes, (read) =>
      resume(
        read._tag === "Read" ? Effect.succeed(read.bytes)
        : read._tag === "TooLarge" ? Effect.fail(new PayloadTooLarge({ limitBytes }))
        : Effect.die(read.error)
      )))
  )

/** A webhook body as the exact bytes sent, read up to a size limit. */
import type { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { PayloadTooLarge } from "@verbatim/domain/Api"
import { Effect } from "effect"

/** The client went away before the body was complete: there is no one left to answer. */
class BodyBrokenOff extends Error {
  override readonly name = "BodyBrokenOff"
}

/**
 * The body's bytes, or `PayloadTooLarge` when `Content-Length` announces more than `limitBytes`
 * or the body turns out longer. Past the limit the rest is read and discarded rather than the
 * connection cut, so the client still gets its 413. A body that breaks off mid-way dies.
 *
 * Read straight from Node's `IncomingMessage` events: the body is one or a few chunks, and an
 * Effect stream per request costs more than the rest of reading it.
 */
export const read = (
  request: HttpServerRequest.HttpServerRequest,
  limitBytes: number
): Effect.Effect<Uint8Array, PayloadTooLarge> => {
  // Built only when needed: constructing the error validates it and captures a stack trace.
  const tooLarge = () => new PayloadTooLarge({ limitBytes })
  const announced = Number(request.headers["content-length"] ?? "0")
  if (Number.isFinite(announced) && announced > limitBytes) return Effect.fail(tooLarge())
  const incoming = NodeHttpServerRequest.toIncomingMessage(request)
  return Effect.async<Uint8Array, PayloadTooLarge>((resume) => {
    const chunks: Array<Buffer> = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limitBytes) chunks.push(chunk)
    }
    const onEnd = () => {
      detach()
      resume(size > limitBytes ? Effect.fail(tooLarge()) : Effect.succeed(Buffer.concat(chunks, size)))
    }
    const onError = (error: Error) => {
      detach()
      resume(Effect.die(error))
    }
    const onClose = () => {
      if (incoming.complete) return
      detach()
      resume(Effect.die(new BodyBrokenOff("the client closed the connection before the body was complete")))
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
    return Effect.sync(detach)
  })
}

/** A webhook body as the exact bytes sent, read up to a size limit. */
import type { HttpServerRequest } from "@effect/platform"
import { PayloadTooLarge } from "@verbatim/domain/Api"
import { Effect, Stream } from "effect"

interface Reading {
  readonly chunks: Array<Uint8Array>
  readonly size: number
}

/**
 * The body's bytes, or `PayloadTooLarge` when `Content-Length` announces more than `limitBytes`
 * or the stream turns out longer. Past the limit the rest is read and discarded rather than the
 * connection cut, so the client still gets its 413. A body that breaks off mid-way dies (the
 * client went away; there is no one to answer).
 */
export const read = (
  request: HttpServerRequest.HttpServerRequest,
  limitBytes: number
): Effect.Effect<Uint8Array, PayloadTooLarge> => {
  // Built only when needed: constructing the error validates it and captures a stack trace.
  const tooLarge = () => new PayloadTooLarge({ limitBytes })
  const announced = Number(request.headers["content-length"] ?? "0")
  if (Number.isFinite(announced) && announced > limitBytes) return Effect.fail(tooLarge())
  return request.stream.pipe(
    Stream.runFold({ chunks: [], size: 0 } as Reading, (reading, chunk): Reading => {
      const size = reading.size + chunk.length
      if (size <= limitBytes) reading.chunks.push(chunk)
      return { chunks: reading.chunks, size }
    }),
    Effect.orDie,
    Effect.flatMap((reading) => (reading.size > limitBytes ? Effect.fail(tooLarge()) : Effect.succeed(Buffer.concat(reading.chunks)))),
    Effect.withSpan("RawBody.read")
  )
}

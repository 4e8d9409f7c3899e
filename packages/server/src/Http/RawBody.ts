/** A webhook body as the exact bytes sent, read up to a size limit. */
import { HttpServerRequest } from "@effect/platform"
import { PayloadTooLarge } from "@verbatim/domain/Api"
import { Effect, Option } from "effect"

/**
 * The body's bytes, or `PayloadTooLarge` when `Content-Length` announces more than `limitBytes`
 * or the stream turns out longer. A body that breaks off mid-way dies (the client went away).
 */
export const read = (
  request: HttpServerRequest.HttpServerRequest,
  limitBytes: number
): Effect.Effect<Uint8Array, PayloadTooLarge> => {
  const tooLarge = new PayloadTooLarge({ limitBytes })
  const announced = Number(request.headers["content-length"] ?? "0")
  if (Number.isFinite(announced) && announced > limitBytes) return Effect.fail(tooLarge)
  return request.arrayBuffer.pipe(
    Effect.map((buffer) => new Uint8Array(buffer)),
    HttpServerRequest.withMaxBodySize(Option.some(limitBytes)),
    Effect.catchAll((error) =>
      error.cause instanceof Error && error.cause.message === "maxBytes exceeded" ? Effect.fail(tooLarge) : Effect.die(error)
    ),
    Effect.withSpan("RawBody.read")
  )
}

/**
 * What a request to the API or a page's form may send (webhooks read their own bodies, see
 * `Webhooks.ts`): a body over `VERBATIM_MAX_REQUEST_BYTES` is a 413 that names the limit, refused
 * on its announced length before it is read, or once a body sent without one passes the limit;
 * a JSON body that nests deeper than 64 levels is a 400 before anything decodes it. The body is
 * read here once, and the handlers read that.
 */
import { HttpServerError, HttpServerRequest, HttpServerResponse, UrlParams } from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import { maxNesting, textNesting } from "@verbatim/domain/Inbound/bodyShape"
import { Effect, Either, Stream } from "effect"
import { ServerConfig } from "../ServerConfig.js"
import * as RawBody from "./RawBody.js"

const withBodies = new Set(["POST", "PUT", "PATCH", "DELETE"])

const isApi = (request: HttpServerRequest.HttpServerRequest) => new URL(request.url, "http://local").pathname.startsWith("/api/")

const mebibytes = (bytes: number) => `${Number((bytes / 1024 / 1024).toFixed(2))} MiB`

/** The 413: JSON for the API, plain words for a page. */
const tooLarge = (request: HttpServerRequest.HttpServerRequest, limitBytes: number) =>
  isApi(request)
    ? HttpServerResponse.json(
      { _tag: "PayloadTooLarge", limitBytes, message: `the body is over ${mebibytes(limitBytes)} (${limitBytes} bytes), the most one request may send` },
      { status: 413 }
    ).pipe(Effect.orDie)
    : Effect.succeed(HttpServerResponse.text(`Too large: a form may send at most ${mebibytes(limitBytes)} (${limitBytes} bytes).`, { status: 413 }))

const tooDeep = (request: HttpServerRequest.HttpServerRequest) => {
  const message = `body nests deeper than ${maxNesting} levels`
  return isApi(request)
    ? HttpServerResponse.json({ _tag: "BadRequest", message }, { status: 400 }).pipe(Effect.orDie)
    : Effect.succeed(HttpServerResponse.text(`Bad request: the ${message}.`, { status: 400 }))
}

/**
 * `request` with its body already read as `bytes`: every reader of the body (text, JSON, form,
 * bytes, stream) gets them, as the platform's own reader would have given them.
 */
const withBody = (request: HttpServerRequest.HttpServerRequest, bytes: Uint8Array, text: string): HttpServerRequest.HttpServerRequest => {
  const decode = <A>(parse: () => A) =>
    Effect.try({ try: parse, catch: (cause) => new HttpServerError.RequestError({ request, reason: "Decode", cause }) })
  return Object.create(request, {
    text: { value: Effect.succeed(text) },
    json: { value: decode(() => (text === "" ? null : JSON.parse(text) as unknown)) },
    urlParamsBody: { value: decode(() => UrlParams.fromInput(new URLSearchParams(text))) },
    arrayBuffer: { value: Effect.sync(() => bytes.slice().buffer) },
    stream: { value: Stream.succeed(bytes) },
    modify: { value: (options: Parameters<HttpServerRequest.HttpServerRequest["modify"]>[0]) => withBody(request.modify(options), bytes, text) }
  }) as HttpServerRequest.HttpServerRequest
}

/** `app` behind the request limits. */
export const bounded = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R | ServerConfig> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (!withBodies.has(request.method) || request.url.startsWith("/webhooks/")) return yield* app
    const { maxRequestBytes } = yield* ServerConfig
    // Read up to the limit; past it the rest is read and dropped, so the client still reads its 413.
    const bytes = yield* Effect.either(RawBody.read(request, maxRequestBytes))
    if (Either.isLeft(bytes)) return yield* tooLarge(request, maxRequestBytes)
    const text = new TextDecoder().decode(bytes.right)
    if ((request.headers["content-type"] ?? "").startsWith("application/json") && textNesting(text) > maxNesting) return yield* tooDeep(request)
    return yield* Effect.provideService(app, HttpServerRequest.HttpServerRequest, withBody(request, bytes.right, text))
  })

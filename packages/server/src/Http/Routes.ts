/**
 * The HTTP application: every group of the contract with its handlers, the bearer middleware,
 * OpenAPI at `/openapi.json` and its reference at `/docs`, the web pages (`Web/`) and a latency histogram (by route template) around each request. Listening is left to
 * whoever provides the `HttpServer` (Main on a port, tests on 127.0.0.1:0).
 */
import { HttpApiBuilder, HttpServerError, HttpServerRequest } from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import { Api } from "@verbatim/domain/Api"
import { Effect, Exit, Layer } from "effect"
import * as Metrics from "../Metrics.js"
import { OperatorReads } from "../OperatorReads.js"
import { RuntimeMetrics } from "../RuntimeMetrics.js"
import * as Web from "../Web/Layer.js"
import { signInLinksLayer } from "../Web/Links.js"
import { WebKeys } from "../Web/SignIn.js"
import { WebhookAuth } from "../Providers/WebhookAuth.js"
import * as ApiReference from "./ApiReference.js"
import * as Auth from "./Auth.js"
import * as CaptureApi from "./CaptureApi.js"
import * as CurationApi from "./CurationApi.js"
import * as ForgetApi from "./ForgetApi.js"
import * as AskApi from "./AskApi.js"
import * as RemindersApi from "./RemindersApi.js"
import * as DecodeErrors from "./DecodeErrors.js"
import * as Health from "./Health.js"
import * as ReadApi from "./ReadApi.js"
import { bounded } from "./RequestLimits.js"
import { templateOf } from "./RouteTemplate.js"
import * as Webhooks from "./Webhooks.js"
import { CaptureQueue } from "../Inbox/CaptureQueue.js"

/** Records each request's latency by route template, method and status. */
const timed = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const [elapsed, exit] = yield* Effect.timed(Effect.exit(app))
    // A failure (no route, say) is answered by the server from its cause: time it with that status.
    const status = Exit.isSuccess(exit) ? exit.value.status : (yield* HttpServerError.causeResponse(exit.cause))[0].status
    yield* Metrics.requestLatency(templateOf(request.url), request.method, status, elapsed)
    return yield* exit
  })

/** The contract implemented; needs the store, the jobs' services, `ApiToken`, `DirectReplies` and `WebLinks`. */
export const ApiLive = HttpApiBuilder.api(Api).pipe(
  Layer.provide(Auth.layer),
  Layer.provide([Webhooks.layer, ReadApi.layer, CaptureApi.layer, CurationApi.layer, ForgetApi.layer, RemindersApi.layer, AskApi.layer, Health.layer.pipe(Layer.provide(RuntimeMetrics.layer))]),
  Layer.provide(WebhookAuth.layer),
  // `/web` in a chat answers with a sign-in link made with the pages' keys (and `WebLinks`, from outside).
  Layer.provide(signInLinksLayer),
  Layer.provide(WebKeys.layer),
  Layer.provide(OperatorReads.layer)
)

/**
 * Serve the API (and `/openapi.json`) and the web pages on the `HttpServer` in context. The bearer
 * middleware is looked up when the app is built, so it goes to the server layer as well as to the groups.
 */
export const layer = HttpApiBuilder.serve((app) => timed(bounded(app))).pipe(
  Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
  Layer.provide(ApiReference.layer),
  Layer.provide(Web.layer),
  Layer.provide(OperatorReads.layer),
  Layer.provide(DecodeErrors.layer),
  Layer.provide(ApiLive),
  Layer.provide(Auth.layer),
  // One queue for the webhook handlers and the listener's front (see `Http/Listener.ts`).
  Layer.provideMerge(CaptureQueue.layer.pipe(Layer.provide(signInLinksLayer), Layer.provide(WebKeys.layer)))
)

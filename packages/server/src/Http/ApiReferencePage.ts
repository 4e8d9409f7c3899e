/**
 * The API reference page, imported by `ApiReference.ts` on the first request to `/docs`: the
 * platform's Scalar page for the contract it is given, as HTML, its script inline and its fonts
 * the browser's own (Scalar's default fonts come from fonts.scalar.com).
 */
import { HttpApi, HttpApiBuilder, HttpServerRequest } from "@effect/platform"
// From its own module, not the package's index: the index is in the main bundle, and would take
// the script with it.
import * as HttpApiScalar from "@effect/platform/HttpApiScalar"
import { Effect, Layer } from "effect"

/** The page's HTML, as the platform's handler answers a request for it. */
export const html = (api: HttpApi.Api["Type"]) =>
  HttpApiBuilder.Router.router.pipe(
    Effect.flatMap((router) => Effect.provideService(router, HttpServerRequest.HttpServerRequest, HttpServerRequest.fromWeb(new Request("http://localhost/docs")))),
    Effect.map((response) => (response.body._tag === "Uint8Array" ? new TextDecoder().decode(response.body.body) : "")),
    Effect.provide(
      Layer.merge(HttpApiScalar.layer({ path: "/docs", scalar: { withDefaultFonts: false } }), HttpApiBuilder.Router.Live).pipe(
        Layer.provide(Layer.succeed(HttpApi.Api, api))
      )
    )
  )

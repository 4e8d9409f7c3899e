/**
 * The API reference page, imported by `ApiReference.ts` on the first request to `/docs`: the
 * platform's Scalar page on a router of its own, for the contract it is given.
 */
import { HttpApi, HttpApiBuilder } from "@effect/platform"
// From its own module, not the package's index: the index is in the main bundle, and would take
// the script with it.
import * as HttpApiScalar from "@effect/platform/HttpApiScalar"
import { Effect, Layer } from "effect"

export const router = (api: HttpApi.Api["Type"]) =>
  HttpApiBuilder.Router.router.pipe(
    Effect.provide(Layer.merge(HttpApiScalar.layer({ path: "/docs" }), HttpApiBuilder.Router.Live).pipe(Layer.provide(Layer.succeed(HttpApi.Api, api))))
  )

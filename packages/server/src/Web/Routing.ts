/** What every page route shares: its services provided, a form that does not decode answered 400, and its query and path values. */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { type Context, Effect, ParseResult } from "effect"

/** A route's handler with `services` provided; a form that does not decode is the sender's to fix (400). */
export const providing = <S>(services: Context.Context<S>) =>
<A, E>(effect: Effect.Effect<A, E, S | HttpServerRequest.HttpServerRequest | HttpRouter.RouteContext>) =>
  effect.pipe(
    Effect.provide(services),
    Effect.catchIf(ParseResult.isParseError, () => HttpServerResponse.text("Bad request: the form is incomplete or malformed", { status: 400 })),
    Effect.orDie
  )

/** A query parameter of the request, or the empty string. */
export const query = (name: string) => Effect.map(HttpServerRequest.HttpServerRequest, (r) => new URL(r.url, "http://local").searchParams.get(name) ?? "")

/** A parameter of the route's path, or the empty string. */
export const param = (name: string) => Effect.map(HttpRouter.params, (params) => params[name] ?? "")

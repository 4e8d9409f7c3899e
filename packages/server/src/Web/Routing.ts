/**
 * What every page route shares: its services provided, a form posted from another site refused
 * (403), a form that does not decode answered 400, and its query and path values.
 */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { type Context, Effect, Option, ParseResult } from "effect"
import { WebLinks } from "../WebLinks.js"

/**
 * Whether a request comes from a page of another site, as the browser says (`Sec-Fetch-Site`),
 * or else by its `Origin` (this host, or the public address). A request that says neither (not
 * from a browser) is let through: the form token still guards it.
 */
const crossSite = (request: HttpServerRequest.HttpServerRequest, publicUrl: Option.Option<string>): boolean => {
  const site = request.headers["sec-fetch-site"]
  if (site !== undefined) return site !== "same-origin" && site !== "none"
  const origin = request.headers["origin"]
  if (origin === undefined) return false
  if (Option.exists(publicUrl, (url) => URL.canParse(url) && new URL(url).origin === origin)) return false
  return !URL.canParse(origin) || new URL(origin).host !== request.headers["host"]
}

/** `effect`, unless it is a state-changing request from another site (a forged sign-in or form). */
const sameSite = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (request.method === "GET" || request.method === "HEAD") return yield* effect
    if (!crossSite(request, (yield* WebLinks).publicUrl)) return yield* effect
    return yield* HttpServerResponse.text("Forbidden: this form was sent from another site", { status: 403 })
  })

/** A route's handler with `services` provided; a form that does not decode is the sender's to fix (400). */
export const providing = <S>(services: Context.Context<S | WebLinks>) =>
<A, E>(effect: Effect.Effect<A, E, S | WebLinks | HttpServerRequest.HttpServerRequest | HttpRouter.RouteContext>) =>
  sameSite(effect).pipe(
    Effect.provide(services),
    Effect.catchIf(ParseResult.isParseError, () => HttpServerResponse.text("Bad request: the form is incomplete or malformed", { status: 400 })),
    Effect.orDie
  )

/** A query parameter of the request, or the empty string. */
export const query = (name: string) => Effect.map(HttpServerRequest.HttpServerRequest, (r) => new URL(r.url, "http://local").searchParams.get(name) ?? "")

/** A parameter of the route's path, or the empty string. */
export const param = (name: string) => Effect.map(HttpRouter.params, (params) => params[name] ?? "")

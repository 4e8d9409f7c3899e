/**
 * Signing in and out, and what no other route answers: the sign-in form (the API token), the
 * one-time link the bot sends (`Links.ts`), sign-out, and a page for any address the site has no
 * page for (the API's unknown paths answer in JSON). Failed sign-ins count against the address
 * (`Throttle.ts`).
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { EventStore } from "@verbatim/projections/EventStore"
import { FoldCache } from "@verbatim/projections/FoldCache"
import type { Jobs } from "@verbatim/projections/Jobs"
import type { ServerConfig } from "../ServerConfig.js"
import { Effect, Option, Schema } from "effect"
import { page, respond } from "./Layout.js"
import { WebLinks } from "../WebLinks.js"
import { holds, redeem } from "./Links.js"
import { brokenLinkPage, linkPage, missingPage, signInPage } from "./Pages.js"
import { param, providing, query } from "./Routing.js"
import * as SignIn from "./SignIn.js"
import { clientAddress, SignInThrottle } from "./Throttle.js"

const SignInForm = Schema.Struct({ token: Schema.String, next: Schema.optional(Schema.String) })
const SignOutForm = Schema.Struct({ csrf: Schema.String })
const LinkForm = Schema.Struct({ token: Schema.String })

/**
 * A sign-in refused (a wrong token, a link used, expired or forged): counted against the address,
 * and the form again with why; past the address's allowance, a 429 saying when to try again. A
 * right token or a valid link is never refused for the failures before it.
 */
const refusedSignIn = (next: string, why: "token" | "link") =>
  Effect.gen(function*() {
    const throttle = yield* SignInThrottle
    const address = yield* clientAddress
    const wait = yield* throttle.refused(address)
    yield* throttle.failed(address)
    if (Option.isNone(wait)) return yield* respond(page({ title: "Sign in", section: "none", csrf: null }, signInPage(next, why)), 401)
    return yield* HttpServerResponse.text(`Too many failed sign-ins from this address: try again in ${wait.value} seconds.`, {
      status: 429,
      headers: { "retry-after": String(wait.value) }
    })
  })

/** A link's page: its button when the link holds, else what happened and what to do. */
const linkOpened = (token: string) =>
  Effect.flatMap(holds(token), (live) =>
    live
      ? respond(page({ title: "Sign in", section: "none", csrf: null }, linkPage(token)))
      : respond(page({ title: "Link expired", section: "none", csrf: null }, brokenLinkPage), 404))

/** The sign-in routes and the catch-all page, on the API's router. */
export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const keys = yield* SignIn.WebKeys
    const httpsSite = Option.exists((yield* WebLinks).publicUrl, (url) => url.startsWith("https:"))
    const provided = providing(yield* Effect.context<SignIn.WebKeys | SignInThrottle | EventStore | FoldCache | Jobs | WebLinks | ServerConfig>())
    yield* router.get("/signin", provided(Effect.map(query("next"), (next) => respond(page({ title: "Sign in", section: "none", csrf: null }, signInPage(SignIn.localPath(next), null))))).pipe(Effect.flatten))
    // Opening a link only shows a button: link previews and mail scanners fetch links, and must not use them up.
    // The token rides in the query; links with it in the path (as sent before) open too, at any length.
    yield* router.get("/signin/link", provided(Effect.flatMap(query("token"), linkOpened)))
    yield* router.get("/signin/link/*", provided(Effect.flatMap(param("*"), linkOpened)))
    yield* router.post(
      "/signin/link",
      provided(Effect.gen(function*() {
        const form = yield* HttpServerRequest.schemaBodyUrlParams(LinkForm)
        const user = yield* redeem(form.token)
        if (Option.isNone(user)) return yield* refusedSignIn("/", "link")
        return yield* SignIn.signedIn("/", { _tag: "User", user: user.value }, httpsSite)
      }))
    )
    yield* router.post(
      "/signin",
      provided(Effect.gen(function*() {
        const form = yield* HttpServerRequest.schemaBodyUrlParams(SignInForm)
        const next = SignIn.localPath(form.next)
        if (!keys.isApiToken(form.token)) return yield* refusedSignIn(next, "token")
        return yield* SignIn.signedIn(next, { _tag: "Operator" }, httpsSite)
      }))
    )
    const signOut = (everywhere: boolean) =>
      provided(Effect.gen(function*() {
        const form = yield* HttpServerRequest.schemaBodyUrlParams(SignOutForm)
        const who = yield* SignIn.current
        if (Option.isNone(who) || !keys.isCsrf(who.value.cookie, form.csrf)) return yield* HttpServerResponse.text("Forbidden: a stale or missing form token", { status: 403 })
        return yield* SignIn.signOut(who.value.subject, who.value.cookie, everywhere)
      }))
    yield* router.post("/signout", signOut(false))
    yield* router.post("/signout/everywhere", signOut(true))
    // What no route above answers: a page that says so (the API's paths answer in JSON).
    yield* router.all("*", provided(Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      new URL(request.url, "http://local").pathname.startsWith("/api/")
        ? HttpServerResponse.json({ _tag: "NotFound", message: `No such API route: ${request.method} ${request.url}` }, { status: 404 })
        : respond(page({ title: "Not found", section: "none", csrf: null }, missingPage), 404))))
  })
)

/**
 * `/docs`: the API reference (Scalar), its script served from here, never from a CDN, and its
 * fonts the browser's own; the CSP lets it load nothing from any other host. The script
 * is 3.4 MB of source, held several times over (in the bundle, as a string, in the page), so the
 * page's module is imported on the first request to `/docs` and not before: a server nobody asks
 * for its reference does not carry it (about 15 MB of resident memory, BENCHMARKS.md "Memory").
 * The bundle puts the module in a chunk of its own (`scripts/bundle.ts`). The page is served
 * compressed and revalidated by ETag (`StaticPage.ts`).
 */
import { HttpApi, HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import * as StaticPage from "./StaticPage.js"

/** Scalar's inline script (and its WebAssembly) and styles, and requests to this server only ("try it" included). */
export const headers = {
  "content-security-policy":
    "default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
    "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer"
}

export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const api = yield* HttpApi.Api
    const page = yield* Effect.cached(
      Effect.promise(() => import("./ApiReferencePage.js")).pipe(
        Effect.flatMap((module) => module.html(api)),
        Effect.flatMap((html) => StaticPage.make(html, headers))
      )
    )
    yield* router.get("/docs", Effect.flatMap(page, (served) => served.respond))
  })
)

/**
 * `/docs`: the API reference (Scalar), its script served from here, never from a CDN. The script
 * is 3.4 MB of source, held several times over (in the bundle, as a string, in the page), so the
 * page's module is imported on the first request to `/docs` and not before: a server nobody asks
 * for its reference does not carry it (about 15 MB of resident memory, BENCHMARKS.md "Memory").
 * The bundle puts the module in a chunk of its own (`scripts/bundle.ts`).
 */
import { HttpApi, HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"

export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const api = yield* HttpApi.Api
    const page = yield* Effect.cached(Effect.flatMap(Effect.promise(() => import("./ApiReferencePage.js")), (module) => module.router(api)))
    yield* router.get("/docs", Effect.flatten(page))
  })
)

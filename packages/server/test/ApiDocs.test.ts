/** `/openapi.json` describes every endpoint; `/docs` is the API reference, served by the server itself. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Harness, layer } from "./harness.js"

describe("API documentation", () => {
  it.effect("every operation of /openapi.json has a summary and a description; /docs loads no script from elsewhere", () =>
    Effect.gen(function*() {
      const { request } = yield* Harness
      const spec = JSON.parse((yield* request("GET", "/openapi.json")).body) as {
        paths: Record<string, Record<string, { summary?: string; description?: string }>>
      }
      const operations = Object.entries(spec.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op.summary !== undefined && op.description !== undefined])
      )
      expect(operations.length).toBe(34)
      expect(operations.filter(([, documented]) => !documented)).toEqual([])
      const docs = yield* request("GET", "/docs")
      expect(docs.status).toBe(200)
      expect(docs.body.match(/<script[^>]*\bsrc=/g)).toBeNull()
      expect(docs.body).toContain("\"openapi\"")
      // The page's module is imported once; the second request is served the same page.
      const again = yield* request("GET", "/docs")
      expect({ status: again.status, same: again.body === docs.body }).toEqual({ status: 200, same: true })
    }).pipe(Effect.provide(layer([]))))
})

/**
 * `/openapi.json` describes every endpoint; `/docs` is the API reference, served by the server
 * itself: compressed as the client accepts, revalidated by ETag, stating the CLI's version.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { get } from "node:http"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { headers as docsHeaders } from "../src/Http/ApiReference.js"
import { runCli } from "./CliHarness.js"
import { Harness, layer } from "./harness.js"

/** One GET as it comes over the wire: status, the headers that matter here, and the bytes undecoded. */
const raw = (url: string, headers: Record<string, string>) =>
  Effect.async<{ status: number; headers: Record<string, string | undefined>; body: Buffer }>((resume) => {
    get(url, { headers }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => {
        const h = response.headers
        resume(Effect.succeed({
          status: response.statusCode ?? 0,
          headers: {
            "content-encoding": h["content-encoding"],
            "content-type": h["content-type"],
            "cache-control": h["cache-control"],
            vary: h["vary"],
            "content-security-policy": h["content-security-policy"] as string | undefined
          },
          body: Buffer.concat(chunks)
        }))
      })
    })
  })

const etagOf = (url: string, headers: Record<string, string>) =>
  Effect.async<string>((resume) => {
    get(url, { headers }, (response) => {
      response.resume()
      resume(Effect.succeed(String(response.headers.etag)))
    })
  })

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
      // Every operation of the contract, by method and path.
      expect(operations.map(([name]) => name).sort()).toEqual([
        "GET /api/asks",
        "GET /api/asks/{id}",
        "GET /api/events",
        "GET /api/notes/{id}",
        "GET /api/notes/{id}/audit",
        "GET /api/people",
        "GET /api/people/{id}/export",
        "GET /api/people/{id}/notes",
        "GET /api/questions",
        "GET /api/reminders",
        "GET /api/search",
        "GET /api/sessions/{id}/accounting",
        "GET /healthz",
        "GET /metrics",
        "GET /readyz",
        "GET /webhooks/whatsapp",
        "POST /api/ask",
        "POST /api/messages",
        "POST /api/messages/{id}/forget",
        "POST /api/notes/{id}/discard",
        "POST /api/notes/{id}/forget",
        "POST /api/notes/{id}/move",
        "POST /api/notes/{id}/restore",
        "POST /api/notes/{id}/split",
        "POST /api/people/{id}/forget",
        "POST /api/people/{id}/merge",
        "POST /api/people/{id}/rename",
        "POST /api/people/{id}/unmerge",
        "POST /api/questions/{id}/answer",
        "POST /api/reminders/{id}/cancel",
        "POST /api/reminders/{id}/done",
        "POST /api/reminders/{id}/reschedule",
        "POST /api/reminders/{id}/snooze",
        "POST /webhooks/telegram",
        "POST /webhooks/whatsapp"
      ])
      expect(operations.filter(([, documented]) => !documented)).toEqual([])
      const docs = yield* request("GET", "/docs")
      expect(docs.status).toBe(200)
      expect(docs.body.match(/<script[^>]*\bsrc=/g)).toBeNull()
      expect(docs.body).toContain("\"openapi\"")
      // The page's module is imported once; the second request is served the same page.
      const again = yield* request("GET", "/docs")
      expect({ status: again.status, same: again.body === docs.body }).toEqual({ status: 200, same: true })
    }).pipe(Effect.provide(layer([]))))

  it.effect("/docs is the same page brotli'd, gzipped or plain, as the client accepts, with an ETag per encoding and a 304 for any of them", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* Harness
      const url = `${baseUrl}/docs`
      const plain = yield* raw(url, {})
      const br = yield* raw(url, { "accept-encoding": "gzip, deflate, br" })
      const gz = yield* raw(url, { "accept-encoding": "br;q=0, gzip" })
      const headers = (encoding: string | undefined) => ({
        "content-encoding": encoding,
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-cache",
        vary: "Accept-Encoding",
        "content-security-policy": docsHeaders["content-security-policy"]
      })
      expect([plain.status, plain.headers, br.status, br.headers, gz.status, gz.headers]).toEqual([
        200, headers(undefined), 200, headers("br"), 200, headers("gzip")
      ])
      const text = plain.body.toString("utf8")
      expect([brotliDecompressSync(br.body).toString("utf8") === text, gunzipSync(gz.body).toString("utf8") === text]).toEqual([true, true])
      // Compressed, the 3.4 MB page is under a third of itself, brotli's smaller than gzip's.
      expect([gz.body.length < plain.body.length / 3, br.body.length < gz.body.length]).toEqual([true, true])
      const tags = [yield* etagOf(url, {}), yield* etagOf(url, { "accept-encoding": "br" }), yield* etagOf(url, { "accept-encoding": "gzip" })]
      expect(tags.map((tag) => tag.replace(/^"[A-Za-z0-9_-]{22}/, "\"HASH"))).toEqual(["\"HASH\"", "\"HASH-br\"", "\"HASH-gzip\""])
      const revalidated = yield* raw(url, { "accept-encoding": "br", "if-none-match": `W/"other", ${tags[1]}` })
      expect([revalidated.status, revalidated.headers["cache-control"], revalidated.body.length]).toEqual([304, "no-cache", 0])
      expect((yield* raw(url, { "if-none-match": "\"other\"" })).status).toBe(200)
    }).pipe(Effect.provide(layer([]))))

  it.scoped("/docs states the version `verbatim --version` prints", () =>
    Effect.gen(function*() {
      const { request } = yield* Harness
      const spec = JSON.parse((yield* request("GET", "/openapi.json")).body) as { info: { title: string; version: string } }
      const cli = yield* runCli(["--version"], {})
      expect({ info: spec.info, cli }).toEqual({ info: { title: "Verbatim", version: "0.1.0" }, cli: { code: 0, stdout: "0.1.0\n\n", stderr: "" } })
      const docs = (yield* request("GET", "/docs")).body
      expect(docs.match(/"version": ?"[^"]*"/g)?.[0]).toBe("\"version\":\"0.1.0\"")
    }).pipe(Effect.provide(layer([]))), { timeout: 60_000 })
})

import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Redacted } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import * as AnthropicTokenCounter from "../src/AnthropicTokenCounter.js"
import * as TokenEstimator from "../src/TokenEstimator.js"
import { Tokenizer } from "../src/Tokenizer.js"

interface Seen {
  readonly method: string | undefined
  readonly url: string | undefined
  readonly authorization: string | undefined
  readonly body: unknown
}

/** A loopback stand-in for `POST /v1/messages/count_tokens` that records what it was sent. */
const fakeCountTokens = (status: number, inputTokens: number) =>
  Effect.acquireRelease(
    Effect.async<{ readonly server: Server; readonly seen: Array<Seen>; readonly url: string }>((resume) => {
      const seen: Array<Seen> = []
      const server = createServer((request, response) => {
        let body = ""
        request.on("data", (chunk) => (body += chunk))
        request.on("end", () => {
          seen.push({ method: request.method, url: request.url, authorization: request.headers.authorization, body: JSON.parse(body) })
          response.writeHead(status, { "content-type": "application/json" })
          response.end(
            JSON.stringify(status === 200 ? { input_tokens: inputTokens } : { type: "error", error: { type: "api_error", message: "boom" } })
          )
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({ server, seen, url: `http://127.0.0.1:${port}` }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.close(() => resume(Effect.void))
      })
  )

/** A loopback address nothing listens on: a server is started, its port noted, and closed. */
const deadAddress = Effect.scoped(fakeCountTokens(200, 0)).pipe(Effect.map(({ url }) => url))

const options = (baseURL: string) => ({ apiKey: Redacted.make("test-key"), baseURL, model: "claude-sonnet-4-5" })

const request: TokenEstimator.TokenRequest = {
  system: "You file notes.",
  tools: [{ name: "plan", description: "The plan.", input_schema: { type: "object", properties: {} } }],
  messages: [{ role: "user", content: "Alice moved to Lyon." }]
}

describe("AnthropicTokenCounter", () => {
  it.scoped("asks count_tokens with the whole request and returns its count", () =>
    Effect.gen(function*() {
      const fake = yield* fakeCountTokens(200, 42)
      const tokenizer = yield* AnthropicTokenCounter.make(options(fake.url))
      expect(yield* tokenizer.countRequest(request)).toBe(42)
      expect(fake.seen).toEqual([{
        method: "POST",
        url: "/v1/messages/count_tokens",
        authorization: "Bearer test-key",
        body: { model: "claude-sonnet-4-5", system: request.system, tools: request.tools, messages: request.messages }
      }])
    }))

  it.scoped("answers a second identical request from the cache", () =>
    Effect.gen(function*() {
      const fake = yield* fakeCountTokens(200, 42)
      const tokenizer = yield* AnthropicTokenCounter.make(options(fake.url))
      const counts = [yield* tokenizer.countText("hello"), yield* tokenizer.countText("hello")]
      expect(counts).toEqual([42, 42])
      expect(fake.seen.map((seen) => seen.body)).toEqual([
        { model: "claude-sonnet-4-5", messages: [{ role: "user", content: "hello" }] }
      ])
      yield* tokenizer.countText("hello again")
      expect(fake.seen.length).toBe(2)
    }))

  it.scoped("counts the empty text as zero without asking", () =>
    Effect.gen(function*() {
      const fake = yield* fakeCountTokens(200, 42)
      const tokenizer = yield* AnthropicTokenCounter.make(options(fake.url))
      expect(yield* tokenizer.countText("")).toBe(0)
      expect(fake.seen).toEqual([])
    }))

  it.scoped("falls back to the estimator on an API error, and does not cache it", () =>
    Effect.gen(function*() {
      const fake = yield* fakeCountTokens(500, 42)
      const tokenizer = yield* AnthropicTokenCounter.make(options(fake.url))
      const estimate = TokenEstimator.requestTokens(request)
      expect([yield* tokenizer.countRequest(request), yield* tokenizer.countRequest(request)]).toEqual([estimate, estimate])
      expect(fake.seen.length).toBe(2)
    }))

  it.effect("falls back to the estimator when the API is unreachable", () =>
    Effect.gen(function*() {
      const tokenizer = yield* AnthropicTokenCounter.make(options(yield* deadAddress))
      expect(yield* tokenizer.countRequest(request)).toBe(TokenEstimator.requestTokens(request))
      expect(yield* tokenizer.countText("héllo")).toBe(
        TokenEstimator.requestTokens({ system: "", tools: [], messages: [{ role: "user", content: "héllo" }] })
      )
    }))
})

describe("AnthropicTokenCounter.layerConfig", () => {
  const withConfig = (entries: ReadonlyArray<readonly [string, string]>) =>
    Layer.setConfigProvider(ConfigProvider.fromMap(new Map(entries)))

  it.scoped("reads the key, the base URL and the default model", () =>
    Effect.gen(function*() {
      const fake = yield* fakeCountTokens(200, 7)
      const config = withConfig([["ANTHROPIC_API_KEY", "configured-key"], ["ANTHROPIC_BASE_URL", fake.url]])
      const tokens = yield* Tokenizer.pipe(
        Effect.flatMap((tokenizer) => tokenizer.countText("hi")),
        Effect.provide(AnthropicTokenCounter.layerConfig.pipe(Layer.provide(config)))
      )
      expect(tokens).toBe(7)
      expect(fake.seen.map(({ authorization, body }) => ({ authorization, body }))).toEqual([
        { authorization: "Bearer configured-key", body: { model: "claude-sonnet-4-5", messages: [{ role: "user", content: "hi" }] } }
      ])
    }))

  it.effect("uses the estimator when no key is configured", () =>
    Effect.gen(function*() {
      const tokens = yield* Tokenizer.pipe(
        Effect.flatMap((tokenizer) => tokenizer.countText("héllo")),
        Effect.provide(AnthropicTokenCounter.layerConfig.pipe(Layer.provide(withConfig([]))))
      )
      expect(tokens).toBe(6)
    }))
})

/** The listener's limits over real loopback sockets: slow headers, a body that never completes, a refused secret, a connection cap. */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { connect, type Socket } from "node:net"
import { aliceUpdate, capturedTexts, eventLog, Harness, layer, telegramSecret } from "./harness.js"

/** What the server sent on one connection after `sent` was written, and whether it closed the connection within `waitMs`. */
const exchange = (sent: string, waitMs = 3000) =>
  Effect.flatMap(Harness, (h) =>
    Effect.promise(() =>
      new Promise<{ readonly received: string; readonly closed: boolean; readonly millis: number }>((resolve) => {
        const started = Date.now()
        const socket = connect(Number(new URL(h.baseUrl).port), "127.0.0.1")
        let received = ""
        const timer = setTimeout(() => {
          socket.destroy()
          resolve({ received, closed: false, millis: Date.now() - started })
        }, waitMs)
        socket.setEncoding("utf8")
        socket.on("data", (chunk: string) => void (received += chunk))
        socket.on("close", () => {
          clearTimeout(timer)
          resolve({ received, closed: true, millis: Date.now() - started })
        })
        // A connection the server drops may end in a reset; the close that follows reports it.
        socket.on("error", () => undefined)
        socket.write(sent)
      })
    ))

/** Responses with their `Date` lines taken out, which change with the clock. */
const withoutDate = (response: string) => response.replace(/\r\nDate: [^\r]*/g, "")

/** The whole 401 the webhook front sends, on a connection kept open or closed after it. */
const unauthorized = (message: string, connection: "keep-alive" | "close") => {
  const body = JSON.stringify({ message, _tag: "Unauthorized" })
  const kept = connection === "keep-alive" ? "Connection: keep-alive\r\nKeep-Alive: timeout=5" : "Connection: close"
  return `HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n${kept}\r\n\r\n${body}`
}

const telegramHead = (secret: string | null, contentLength: number) =>
  [
    "POST /webhooks/telegram HTTP/1.1",
    "Host: 127.0.0.1",
    "Content-Type: application/json",
    `Content-Length: ${contentLength}`,
    ...(secret === null ? [] : [`X-Telegram-Bot-Api-Secret-Token: ${secret}`]),
    "",
    ""
  ].join("\r\n")

const timeout = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n"

const limited = layer([], {
  settings: { headersTimeout: Duration.millis(200), requestTimeout: Duration.millis(400), maxConnections: 2 }
})

describe("listener limits", () => {
  it.effect("headers that do not arrive in time get a 408 and the connection closed", () =>
    Effect.gen(function*() {
      const slow = yield* exchange("POST /webhooks/telegram HTTP/1.1\r\nHost: 127.0.0.1\r\n")
      expect([slow.received, slow.closed, slow.millis < 1500]).toEqual([timeout, true, true])
    }).pipe(Effect.provide(limited)))

  it.effect("a body that never completes gets a 408 and the connection closed, and appends nothing", () =>
    Effect.gen(function*() {
      const stalled = yield* exchange(`${telegramHead(telegramSecret, 1000)}{"update_id": 1,`)
      expect([stalled.received, stalled.closed, stalled.millis < 1500]).toEqual([timeout, true, true])
      expect(yield* eventLog).toEqual([])
    }).pipe(Effect.provide(limited)))

  it.effect("a wrong or missing Telegram secret is refused before the body is read; a body that then stalls has its connection closed", () =>
    Effect.gen(function*() {
      // Only the head and a little of a 60 000-byte body are sent: a server that waited for the rest
      // would answer 408 at the request timeout instead.
      const part = "x".repeat(1000)
      const refused = (message: string) => [unauthorized(message, "keep-alive"), true]
      const wrong = yield* exchange(telegramHead("not-the-secret", 60_000) + part)
      const missing = yield* exchange(telegramHead(null, 60_000) + part)
      expect([[withoutDate(wrong.received), wrong.closed], [withoutDate(missing.received), missing.closed]]).toEqual([
        refused("telegram webhook refused: secret token mismatch"),
        refused("telegram webhook refused: secret token missing")
      ])
    }).pipe(Effect.provide(limited)))

  it.live("a refused client that goes on sending its body reads the answer, and the connection serves its next request", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* Harness
      // The head of a 1 MB body with a wrong secret; the body is sent once the refusal has arrived,
      // and then a whole request on the same connection. A server that closed after its answer
      // would reset the connection under the body, and never answer the second request.
      const body = "x".repeat(1024 * 1024)
      const next = aliceUpdate(7, { text: "after the refused one" })
      const received = yield* Effect.promise(() =>
        new Promise<string>((resolve, reject) => {
          const socket = connect(Number(new URL(baseUrl).port), "127.0.0.1")
          let text = ""
          socket.setEncoding("utf8")
          socket.on("data", (chunk: string) => {
            const first = !text.includes("\r\n\r\n{")
            text += chunk
            if (first && text.includes("\r\n\r\n{")) {
              socket.write(body)
              socket.write(
                `POST /webhooks/telegram HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n` +
                  `X-Telegram-Bot-Api-Secret-Token: ${telegramSecret}\r\nContent-Length: ${Buffer.byteLength(next)}\r\n\r\n${next}`
              )
            }
          })
          socket.on("close", () => resolve(text))
          socket.on("error", reject)
          socket.write(telegramHead("not-the-secret", body.length))
        })
      )
      expect(withoutDate(received)).toBe(
        unauthorized("telegram webhook refused: secret token mismatch", "keep-alive") +
          "HTTP/1.1 200 OK\r\ncontent-length: 0\r\nConnection: close\r\n\r\n"
      )
      expect(yield* capturedTexts).toEqual(["after the refused one"])
    }).pipe(Effect.provide(layer([]))))

  // Live: the third connection waits in real time for the two holders to connect.
  it.live("connections past the cap are closed as they arrive; one frees a place", () =>
    Effect.gen(function*() {
      const head = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
      const ok = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 15\r\nConnection: close\r\n\r\n{"status":"ok"}`
      // Two connections that send half a head hold both places until their headers time out.
      const holders = Effect.all([exchange("GET /healthz HTTP/1.1\r\n"), exchange("GET /healthz HTTP/1.1\r\n")], { concurrency: 2 })
      const [held, turnedAway] = yield* Effect.all([holders, Effect.delay(exchange(head), Duration.millis(50))], { concurrency: 2 })
      expect([held.map((h) => h.received), turnedAway.received, turnedAway.closed]).toEqual([[timeout, timeout], "", true])
      const after = yield* exchange(head)
      expect([withoutDate(after.received), after.closed]).toEqual([ok, true])
    }).pipe(Effect.provide(limited)))

  // Live: the server closes sockets in real time as they connect.
  it.live("one address past its share of connections has the rest closed as they arrive; other senders' requests still land", () =>
    Effect.gen(function*() {
      const held = yield* idleFrom("127.0.0.2", 5)
      expect(held.closed).toEqual([false, false, false, true, true])
      const h = yield* Harness
      expect(yield* h.request("GET", "/healthz")).toEqual({ status: 200, body: "{\"status\":\"ok\"}" })
      held.release()
    }).pipe(Effect.provide(layer([], { settings: { maxConnectionsPerAddress: 3 } }))))

  it.live("the operator's proxies carry everyone's connections, so their share is not capped", () =>
    Effect.gen(function*() {
      const held = yield* idleFrom("127.0.0.2", 5)
      expect(held.closed).toEqual([false, false, false, false, false])
      held.release()
    }).pipe(Effect.provide(layer([], { settings: { maxConnectionsPerAddress: 3, trustedProxies: ["127.0.0.2"] } }))))
})

/** `n` connections from `address` that send nothing, opened one after another: which the server had closed 300 ms later. */
const idleFrom = (address: string, n: number) =>
  Effect.flatMap(Harness, (h) =>
    Effect.promise(async () => {
      const sockets: Array<Socket> = []
      const closed: Array<boolean> = []
      for (let i = 0; i < n; i++) {
        const socket = connect({ port: Number(new URL(h.baseUrl).port), host: "127.0.0.1", localAddress: address })
        closed.push(false)
        socket.on("close", () => void (closed[i] = true))
        socket.on("error", () => undefined)
        await new Promise((resolve) => socket.once("connect", resolve))
        sockets.push(socket)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      await new Promise((resolve) => setTimeout(resolve, 300))
      return { closed: [...closed], release: () => sockets.forEach((s) => s.destroy()) }
    }))

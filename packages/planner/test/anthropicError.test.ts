import { describe, expect, it } from "@effect/vitest"
import { reasonOfStatus, retryAfterMs } from "../src/internal/anthropicError.js"

describe("Anthropic error mapping", () => {
  it("reads each status as what a caller can do about it", () => {
    const statuses = [400, 401, 402, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 529]
    expect(Object.fromEntries(statuses.map((status) => [status, reasonOfStatus(status)]))).toEqual({
      400: "invalid-request",
      401: "auth",
      402: "invalid-request",
      403: "auth",
      404: "invalid-request",
      408: "timeout",
      409: "server",
      413: "invalid-request",
      422: "invalid-request",
      429: "rate-limited",
      500: "server",
      502: "server",
      503: "server",
      529: "overloaded"
    })
  })

  it("reads retry-after-ms first, then retry-after as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-11-30T12:00:00Z")
    const read = (headers: Record<string, string>) => retryAfterMs(new Headers(headers), now)
    expect([
      read({ "retry-after-ms": "250.5", "retry-after": "9" }),
      read({ "retry-after": "3" }),
      read({ "retry-after": "Mon, 30 Nov 2026 12:00:42 GMT" }),
      read({ "retry-after": "Mon, 30 Nov 2026 11:00:00 GMT" }),
      read({ "retry-after": "soon" }),
      read({}),
      retryAfterMs(undefined, now)
    ]).toEqual([250.5, 3000, 42_000, 0, undefined, undefined, undefined])
  })
})

/**
 * Failed sign-ins are throttled per client: past ten in ten minutes, that client's wrong tokens
 * and links wait out the window, while a right token or a valid link always signs in. Behind the
 * operator's proxies the client is the address they report; anyone else's `X-Forwarded-For` is ignored.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, TestClock } from "effect"
import { apiToken, Harness, layer } from "../harness.js"

const signIn = (token: string, from?: string) =>
  Effect.flatMap(Harness, ({ baseUrl }) =>
    Effect.promise(async () => {
      const reply = await fetch(`${baseUrl}/signin`, {
        method: "POST",
        body: new URLSearchParams({ token }),
        headers: from === undefined ? {} : { "x-forwarded-for": from },
        redirect: "manual"
      })
      return [reply.status, reply.headers.get("retry-after")] as const
    }))

const guesses = (n: number, from?: string) => Effect.forEach(Array.from({ length: n }, (_, i) => `guess-${i}`), (t) => signIn(t, from))

describe("sign-in throttle", () => {
  it.effect("ten wrong tokens are refused as wrong, later ones wait out the window; the right token always signs in", () =>
    Effect.gen(function*() {
      expect(yield* guesses(10)).toEqual(Array.from({ length: 10 }, () => [401, null]))
      expect(yield* signIn("guess-again")).toEqual([429, "600"])
      expect(yield* signIn(apiToken)).toEqual([303, null])
      yield* TestClock.adjust(Duration.minutes(4))
      expect(yield* signIn("guess-again")).toEqual([429, "360"])
      // A link's signature guessed counts the same way.
      const link = yield* Effect.flatMap(Harness, ({ baseUrl }) =>
        Effect.promise(() => fetch(`${baseUrl}/signin/link`, { method: "POST", body: new URLSearchParams({ token: "forged" }), redirect: "manual" })))
      expect([link.status, link.headers.get("retry-after")]).toEqual([429, "360"])
      yield* TestClock.adjust(Duration.minutes(6))
      expect(yield* signIn("guess-again")).toEqual([401, null])
    }).pipe(Effect.provide(layer([]))))

  it.effect("without trusted proxies a client cannot name its own address: a forwarded-for header gives no fresh allowance", () =>
    Effect.gen(function*() {
      const spoofed = yield* Effect.forEach(Array.from({ length: 11 }, (_, i) => `203.0.113.${i}`), (from) => signIn("wrong", from))
      expect(spoofed.at(-1)).toEqual([429, "600"])
    }).pipe(Effect.provide(layer([]))))

  it.effect("behind a trusted proxy each client has its own allowance, so one guesser locks out no one else", () =>
    Effect.gen(function*() {
      expect(yield* guesses(11, "203.0.113.9")).toEqual([...Array.from({ length: 10 }, () => [401, null]), [429, "600"]])
      // Another client behind the same proxy (and a hop the client added itself, ignored) is still let try.
      expect(yield* signIn("wrong", "198.51.100.7")).toEqual([401, null])
      expect(yield* signIn("wrong", "203.0.113.9, 198.51.100.8")).toEqual([401, null])
      expect(yield* signIn(apiToken, "203.0.113.9")).toEqual([303, null])
    }).pipe(Effect.provide(layer([], { settings: { trustedProxies: ["127.0.0.1", "::1"] } }))))
})

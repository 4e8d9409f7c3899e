/** Failed sign-ins from one address are throttled: past ten in ten minutes, even the right token waits. */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, TestClock } from "effect"
import { apiToken, Harness, layer } from "../harness.js"

const signIn = (token: string) =>
  Effect.flatMap(Harness, ({ baseUrl }) =>
    Effect.promise(async () => {
      const reply = await fetch(`${baseUrl}/signin`, { method: "POST", body: new URLSearchParams({ token }), redirect: "manual" })
      return [reply.status, reply.headers.get("retry-after")] as const
    }))

describe("sign-in throttle", () => {
  it.effect("ten wrong tokens are refused as wrong; the eleventh attempt, right or wrong, waits out the window", () =>
    Effect.gen(function*() {
      const wrong = yield* Effect.forEach(Array.from({ length: 10 }, (_, i) => `guess-${i}`), signIn)
      expect(wrong).toEqual(Array.from({ length: 10 }, () => [401, null]))
      expect(yield* signIn(apiToken)).toEqual([429, "600"])
      yield* TestClock.adjust(Duration.minutes(4))
      expect(yield* signIn("guess-again")).toEqual([429, "360"])
      yield* TestClock.adjust(Duration.minutes(6))
      expect(yield* signIn(apiToken)).toEqual([303, null])
      // A link's signature guessed counts the same way.
      const link = yield* Effect.flatMap(Harness, ({ baseUrl }) =>
        Effect.promise(() => fetch(`${baseUrl}/signin/link`, { method: "POST", body: new URLSearchParams({ token: "forged" }), redirect: "manual" })))
      expect(link.status).toBe(401)
    }).pipe(Effect.provide(layer([]))))
})

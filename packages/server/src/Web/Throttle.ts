/**
 * Failed sign-ins are counted per client address (`ClientAddress`: behind the operator's proxies,
 * the address they report), and past a few in a window that address's wrong tokens and links are
 * answered 429 with Retry-After for the rest of it. A right token or a valid link always signs in:
 * neither can be guessed, and one person's mistakes (or someone else's, behind one proxy) must not
 * lock anyone out. Kept per instance, in memory.
 */
import { HttpServerRequest } from "@effect/platform"
import { Clock, Context, Duration, Effect, Layer, Option, Ref } from "effect"
import { ServerConfig } from "../ServerConfig.js"
import { clientAddressOf } from "./ClientAddress.js"

/** Failed attempts allowed per address in one window. */
export const allowed = 10
/** How long a window lasts from its first failure. */
export const window = Duration.minutes(10)

interface Window {
  readonly startedAt: number
  readonly failures: number
}

export class SignInThrottle extends Context.Tag("@verbatim/server/Web/SignInThrottle")<SignInThrottle, {
  /** The address a request is counted under. */
  readonly addressOf: (request: HttpServerRequest.HttpServerRequest) => string
  /** Seconds the address must wait before trying again, when it is over its allowance. */
  readonly refused: (address: string) => Effect.Effect<Option.Option<number>>
  /** Count a failed attempt of the address. */
  readonly failed: (address: string) => Effect.Effect<void>
}>() {
  static readonly layer = Layer.effect(
    SignInThrottle,
    Effect.gen(function*() {
      const addressOf = clientAddressOf((yield* ServerConfig).trustedProxies)
      const windows = yield* Ref.make(new Map<string, Window>())
      const span = Duration.toMillis(window)
      const current = (address: string, now: number) =>
        Effect.map(Ref.get(windows), (all) => Option.filter(Option.fromNullable(all.get(address)), (w) => now - w.startedAt < span))
      return SignInThrottle.of({
        addressOf,
        refused: (address) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) =>
            Effect.map(current(address, now), Option.flatMap((w) =>
              w.failures >= allowed ? Option.some(Math.ceil((w.startedAt + span - now) / 1000)) : Option.none()))),
        failed: (address) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) =>
            Effect.flatMap(current(address, now), (w) =>
              Ref.update(windows, (all) => {
                const next = new Map([...all].filter(([, v]) => now - v.startedAt < span))
                const open = Option.getOrElse(w, () => ({ startedAt: now, failures: 0 }))
                return next.set(address, { ...open, failures: open.failures + 1 })
              })))
      })
    })
  )
}

/** The address the request is counted under. */
export const clientAddress = Effect.flatMap(SignInThrottle, (throttle) => Effect.map(HttpServerRequest.HttpServerRequest, throttle.addressOf))

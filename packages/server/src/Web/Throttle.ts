/**
 * Failed sign-ins are counted per client address, and past a few in a window that address is
 * refused for the rest of it (429 with Retry-After): guessing the API token or a link's signature
 * from one address is throttled to a handful of tries per window. Kept per instance, in memory.
 */
import { HttpServerRequest } from "@effect/platform"
import { Clock, Context, Duration, Effect, Layer, Option, Ref } from "effect"

/** Failed attempts allowed per address in one window. */
export const allowed = 10
/** How long a window lasts from its first failure. */
export const window = Duration.minutes(10)

interface Window {
  readonly startedAt: number
  readonly failures: number
}

export class SignInThrottle extends Context.Tag("@verbatim/server/Web/SignInThrottle")<SignInThrottle, {
  /** Seconds the address must wait before trying again, when it is over its allowance. */
  readonly refused: (address: string) => Effect.Effect<Option.Option<number>>
  /** Count a failed attempt of the address. */
  readonly failed: (address: string) => Effect.Effect<void>
}>() {
  static readonly layer = Layer.effect(
    SignInThrottle,
    Effect.gen(function*() {
      const windows = yield* Ref.make(new Map<string, Window>())
      const span = Duration.toMillis(window)
      const current = (address: string, now: number) =>
        Effect.map(Ref.get(windows), (all) => Option.filter(Option.fromNullable(all.get(address)), (w) => now - w.startedAt < span))
      return SignInThrottle.of({
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

/** The address a request came from (the socket's peer; a proxy's own address behind one). */
export const clientAddress = Effect.map(HttpServerRequest.HttpServerRequest, (r) => Option.getOrElse(r.remoteAddress, () => "unknown"))

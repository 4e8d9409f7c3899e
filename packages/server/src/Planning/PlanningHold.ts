/**
 * Planning held on an operator's error: a refused key, a missing permission, an unknown model or
 * an unpaid account is the operator's problem, not the user's. While held, sessions stay closed
 * and unplanned (nothing is parked, nothing is said to the user), `/readyz` reports `degraded`
 * with the reason, and the plan trigger probes the model with one session on a bounded backoff;
 * the first call the provider accepts clears the hold and the held sessions plan.
 */
import { type LanguageModelError, type OperatorFault } from "@verbatim/planner/LanguageModelError"
import { Clock, Context, Effect, Layer, Option, Ref } from "effect"
import * as Metrics from "../Metrics.js"

/** What holds planning: the fault, the provider's status and message, and since when (epoch ms). */
export interface Held {
  readonly fault: OperatorFault
  readonly status: number | null
  readonly message: string
  readonly since: number
}

const what: Record<OperatorFault, string> = {
  "credentials": "the model provider refused the API key (ANTHROPIC_API_KEY)",
  "permission": "the API key lacks permission for the model",
  "unknown-model": "the model provider does not know the configured model (VERBATIM_MODEL)",
  "billing": "the model provider refused the account's billing"
}

/** The reason `/readyz` gives, with the provider's own message. */
export const reasonOf = (held: Held): string =>
  `planning held: ${what[held.fault]}${held.status === null ? "" : ` (HTTP ${held.status})`}: ${held.message}`

export class PlanningHold extends Context.Tag("@verbatim/server/PlanningHold")<PlanningHold, {
  /** Hold planning on this fault; logged at ERROR when it starts or changes, counted every time. */
  readonly hold: (fault: OperatorFault, error: LanguageModelError) => Effect.Effect<void>
  /** The provider accepted a call: release the hold (logged once). */
  readonly clear: Effect.Effect<void>
  /** The hold in force, if any. */
  readonly current: Effect.Effect<Option.Option<Held>>
}>() {
  static readonly make = Effect.gen(function*() {
    const state = yield* Ref.make(Option.none<Held>())
    const hold = (fault: OperatorFault, error: LanguageModelError) =>
      Effect.gen(function*() {
        yield* Metrics.operatorError(fault)
        const now = yield* Clock.currentTimeMillis
        const status = error.status ?? null
        const previous = yield* Ref.get(state)
        const same = Option.exists(previous, (p) => p.fault === fault && p.status === status && p.message === error.message)
        if (same) return
        const held: Held = { fault, status, message: error.message, since: Option.match(previous, { onNone: () => now, onSome: (p) => p.since }) }
        yield* Ref.set(state, Option.some(held))
        yield* Effect.logError("planning held: the model provider refused the operator's configuration").pipe(
          Effect.annotateLogs({ fault, status: status ?? "none", providerMessage: error.message })
        )
      })
    const clear = Effect.flatMap(Ref.getAndSet(state, Option.none()), (previous) =>
      Option.match(previous, {
        onNone: () => Effect.void,
        onSome: (held) => Effect.logInfo("planning resumed: the model provider accepts calls again").pipe(Effect.annotateLogs({ fault: held.fault }))
      }))
    return PlanningHold.of({ hold, clear, current: Ref.get(state) })
  })

  static readonly layer = Layer.effect(PlanningHold, PlanningHold.make)
}

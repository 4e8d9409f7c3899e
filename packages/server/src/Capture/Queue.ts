/**
 * Webhook requests queued for capture: a single consumer takes every request queued in one turn
 * of the event loop and captures them as one batch (`Batch.capture`), so a transaction, a span
 * and a fiber serve the batch rather than each request. Each request is answered when its batch
 * has committed (and any item handed off to run on its own is done); its counter and latency are
 * recorded by the consumer, with one log line for the batch's accepted requests.
 */
import type { Provider } from "@verbatim/domain/Ids"
import * as GroupCommit from "@verbatim/projections/GroupCommit"
import { Context, Effect, Exit, Layer, Runtime } from "effect"
import type * as Dispatch from "../Http/Dispatch.js"
import type { Accepted } from "../Http/Intake.js"
import { acceptedLine, type Answer, handled, record } from "../Http/WebhookAnswer.js"
import { capture, type ItemOutcomes } from "./Batch.js"

/** A request's decoded items, where it came in and when. */
export interface Request {
  readonly provider: Provider
  readonly path: string
  readonly accepted: Accepted
  readonly receivedAt: number
}

/** Most requests one batch takes. */
const maxBatch = 256

export class CaptureQueue extends Context.Tag("@verbatim/server/CaptureQueue")<CaptureQueue, {
  /**
   * Queue a request from outside any fiber (the webhook front): `done` gets its answer, or an
   * interruption when the service stops first. A request whose batch committed is answered
   * without a fiber of its own.
   */
  readonly offer: (request: Request, done: (answer: Exit.Exit<Answer>) => void) => void
  /** The same, from an effect. */
  readonly submit: (request: Request) => Effect.Effect<Answer>
}>() {
  static readonly layer: Layer.Layer<CaptureQueue, never, Dispatch.Requirements> = Layer.scoped(
    CaptureQueue,
    Effect.gen(function*() {
      const runtime = yield* Effect.runtime<never>()
      const scope = yield* Effect.scope
      const context = yield* Effect.context<Dispatch.Requirements>()
      const clock = yield* Effect.clock
      /** Settle an effect without a fiber when it is already an outcome. */
      const whenDone = <A>(effect: Effect.Effect<A>, done: (exit: Exit.Exit<A>) => void) =>
        Exit.isExit(effect) ? done(effect as Exit.Exit<A>) : Runtime.runCallback(runtime)(effect, { onExit: done })

      const answer = (request: Request, outcomes: ItemOutcomes, batched: boolean) => {
        const answered = handled(request.accepted.refusals, outcomes)
        const ms = clock.unsafeCurrentTimeMillis() - request.receivedAt
        return Effect.as(record(request.provider, request.path, answered, request.accepted.refusals, ms, batched), answered)
      }
      const committer = yield* GroupCommit.make(maxBatch, (requests: ReadonlyArray<Request>) =>
        Effect.gen(function*() {
          const settled = yield* capture(requests.map((r) => ({ items: r.accepted.items, receivedAt: r.receivedAt })), scope)
          const accepted = new Map<Provider, { requests: number; ms: number }>()
          const answers = yield* Effect.forEach(requests, (request, i): Effect.Effect<Effect.Effect<Answer>> => {
            const outcome = settled[i]!
            if (!Exit.isExit(outcome) || Exit.isFailure(outcome)) return Effect.succeed(Effect.flatMap(outcome, (outcomes) => answer(request, outcomes, false)))
            return Effect.map(answer(request, outcome.value as ItemOutcomes, true), (answered) => {
              if (answered.outcome === "accepted") {
                const line = accepted.get(request.provider) ?? { requests: 0, ms: 0 }
                accepted.set(request.provider, { requests: line.requests + 1, ms: Math.max(line.ms, clock.unsafeCurrentTimeMillis() - request.receivedAt) })
              }
              return Exit.succeed(answered)
            })
          })
          for (const [provider, line] of accepted) yield* acceptedLine(provider, line.requests, line.ms)
          return answers
        }).pipe(Effect.provide(context)))

      const offer = (request: Request, done: (answer: Exit.Exit<Answer>) => void) =>
        committer.offer(request, (queued) =>
          whenDone(queued, (exit) => Exit.isSuccess(exit) ? whenDone(exit.value, done) : done(exit as Exit.Exit<never>)))
      return {
        offer,
        submit: (request) => Effect.async<Answer>((resume) => offer(request, resume))
      }
    })
  )
}

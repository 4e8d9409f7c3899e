/**
 * Webhook requests queued for capture: a single consumer takes every request queued in one turn
 * of the event loop and captures them as one batch (`Batch.capture`), so a transaction, a span
 * and a fiber serve the batch rather than each request. Each request is answered when its batch
 * has committed (and any item handed off to run on its own is done); the batch's answers are
 * recorded together (`recordAll`): counters and latencies in one step, one line for the accepted.
 */
import type { Provider } from "@verbatim/domain/Ids"
import * as GroupCommit from "@verbatim/projections/GroupCommit"
import { Context, Effect, Exit, Layer, Runtime } from "effect"
import type * as Dispatch from "./Dispatch.js"
import type { Accepted } from "./Intake.js"
import { type Answer, type Answered, handled, recordAll } from "./WebhookAnswer.js"
import { capture, type ItemOutcomes } from "./CaptureBatch.js"

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

      const answered = (request: Request, answer: Answer): Answered => ({
        provider: request.provider,
        path: request.path,
        answer,
        reasons: request.accepted.refusals,
        ms: clock.unsafeCurrentTimeMillis() - request.receivedAt
      })
      const committer = yield* GroupCommit.make(maxBatch, (requests: ReadonlyArray<Request>) =>
        Effect.gen(function*() {
          const settled = yield* capture(requests.map((r) => ({ items: r.accepted.items, receivedAt: r.receivedAt })), scope)
          const recorded: Array<Answered> = []
          const answers = requests.map((request, i): Effect.Effect<Answer> => {
            const outcome = settled[i]!
            if (Exit.isExit(outcome) && Exit.isSuccess(outcome)) {
              const answer = handled(request.accepted.refusals, outcome.value as ItemOutcomes)
              recorded.push(answered(request, answer))
              return Exit.succeed(answer)
            }
            // Items handed off to run on their own: answered, and recorded, when they are done.
            return Effect.flatMap(outcome, (outcomes) => {
              const answer = handled(request.accepted.refusals, outcomes)
              return Effect.as(recordAll([answered(request, answer)]), answer)
            })
          })
          yield* recordAll(recorded)
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

/**
 * What a webhook request is answered, and how it is recorded: a log line per request refused or
 * failed and per batch of accepted ones (provider, outcome, ms), one per refusal (why, never the
 * text), the webhook counter and the route's latency. 200 once every item is handled; 400 when an item could not be stored exactly
 * (the others are); 500 when an item failed, so the provider delivers the request again and the
 * items already recorded are recognised as redeliveries.
 */
import type { Provider } from "@verbatim/domain/Ids"
import { summarise } from "@verbatim/domain/IssueSummary"
import { BadRequest, PayloadTooLarge, Unauthorized } from "@verbatim/domain/Api"
import { Cause, Effect, Exit, Schema } from "effect"
import type { ItemOutcomes } from "./CaptureBatch.js"
import * as Metrics from "../Metrics.js"
import type { Refusal } from "./Intake.js"

/** The answer to a request. */
export interface Answer {
  readonly status: 200 | 400 | 401 | 413 | 500
  readonly body: Refusal["body"] | null
  readonly outcome: Metrics.WebhookOutcome
  /** The first failed item's cause, for the log. */
  readonly failure: Cause.Cause<unknown> | null
}

const encodeBody = Schema.encodeSync(Schema.Union(BadRequest, Unauthorized, PayloadTooLarge))

/** The answer's body as the contract encodes it. */
export const bodyText = (body: NonNullable<Answer["body"]>): string => JSON.stringify(encodeBody(body))

export const refused = (refusal: Refusal): Answer => ({ status: refusal.status, body: refusal.body, outcome: refusal.outcome, failure: null })

/** The answer once the request's storable items are handled; `refusals` are the items set aside. */
export const handled = (refusals: ReadonlyArray<string>, outcomes: ItemOutcomes): Answer => {
  const failed = outcomes.find(Exit.isFailure)
  if (failed !== undefined) return { status: 500, body: null, outcome: "error", failure: failed.cause }
  if (refusals.length > 0) return { status: 400, body: new BadRequest({ message: summarise(refusals) }), outcome: "bad-request", failure: null }
  return { status: 200, body: null, outcome: "accepted", failure: null }
}

/** One line per refusal: what was refused and why, never the body's text. */
export const refusal = (provider: Provider, reason: string) =>
  Effect.logWarning("refused").pipe(Effect.annotateLogs({ refused: "webhook", provider, reason }))

/**
 * The line for accepted requests: one per batch and provider (a line per request cost a tenth of
 * a capture's CPU), with how many and the slowest one's time.
 */
const acceptedLine = (provider: Provider, requests: number, ms: number) =>
  Effect.logInfo("webhook").pipe(Effect.annotateLogs({ provider, outcome: "accepted", requests, ms }))

/** A request's answer as it is recorded: where it came in, its refusals' reasons, and how long it took. */
export interface Answered {
  readonly provider: Provider
  readonly path: string
  readonly answer: Answer
  readonly reasons: ReadonlyArray<string>
  readonly ms: number
}

/**
 * Record answers, a batch's together: each refusal's and failure's line, one line per provider
 * for the accepted requests (with the slowest one's time), and each request's counter and latency.
 */
export const recordAll = (answered: ReadonlyArray<Answered>) =>
  Effect.gen(function*() {
    const accepted = new Map<Provider, { requests: number; ms: number }>()
    for (const { answer, ms, provider, reasons } of answered) {
      for (const reason of reasons) yield* refusal(provider, reason)
      if (answer.failure !== null) {
        yield* Effect.logError("webhook failed; the provider will deliver it again").pipe(
          Effect.annotateLogs({ provider, defect: String(Cause.squash(answer.failure)) })
        )
      }
      if (answer.outcome === "accepted") {
        const line = accepted.get(provider)
        accepted.set(provider, { requests: (line?.requests ?? 0) + 1, ms: Math.max(line?.ms ?? 0, ms) })
      } else {
        yield* Effect.logWarning("webhook").pipe(Effect.annotateLogs({ provider, outcome: answer.outcome, ms }))
      }
    }
    for (const [provider, line] of accepted) yield* acceptedLine(provider, line.requests, line.ms)
    yield* Metrics.webhooksAnswered(answered.map((a) => ({ provider: a.provider, outcome: a.answer.outcome, route: a.path, status: a.answer.status, ms: a.ms })))
  })

/** Record one request's answer. */
export const record = (provider: Provider, path: string, answer: Answer, reasons: ReadonlyArray<string>, ms: number) =>
  recordAll([{ provider, path, answer, reasons, ms }])

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
import { Cause, Duration, Effect, Exit, Schema } from "effect"
import type { ItemOutcomes } from "../Capture/Batch.js"
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
export const acceptedLine = (provider: Provider, requests: number, ms: number) =>
  Effect.logInfo("webhook").pipe(Effect.annotateLogs({ provider, outcome: "accepted", requests, ms }))

/**
 * Record a request's answer: its refusals, the counter, the latency, and its own line unless it
 * was accepted and `batched` (then `acceptedLine` says it with the rest of its batch).
 */
export const record = (provider: Provider, path: string, answer: Answer, reasons: ReadonlyArray<string>, ms: number, batched = false) =>
  Effect.gen(function*() {
    for (const reason of reasons) yield* refusal(provider, reason)
    if (answer.failure !== null) {
      yield* Effect.logError("webhook failed; the provider will deliver it again").pipe(
        Effect.annotateLogs({ provider, defect: String(Cause.squash(answer.failure)) })
      )
    }
    if (answer.outcome === "accepted") {
      if (!batched) yield* acceptedLine(provider, 1, ms)
    } else {
      yield* Effect.logWarning("webhook").pipe(Effect.annotateLogs({ provider, outcome: answer.outcome, ms }))
    }
    yield* Metrics.webhook(provider, answer.outcome)
    yield* Metrics.requestLatency(path, "POST", answer.status, Duration.millis(ms))
  })

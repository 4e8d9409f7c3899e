/**
 * The service's metrics, as Effect `Metric`s. They are exposed by a small hand-written Prometheus
 * text exporter (`Exposition.ts`) rather than prom-client or OpenTelemetry's exporter: Effect's
 * metrics are fiber-aware and already the one registry the code records into, and a second
 * registry beside it would split the metrics in two and need its own wiring in every layer.
 */
import type { TokenUsage } from "@verbatim/domain/Events"
import type { Provider } from "@verbatim/domain/Ids"
import { Duration, Effect, FiberRef, Metric, MetricBoundaries, MetricKey, type MetricKeyType, MetricLabel } from "effect"

/** What became of one webhook request. */
export type WebhookOutcome = "accepted" | "unauthorized" | "bad-request" | "too-large" | "error"

/** What became of one queued reply's attempt: sent, failed for good, or failed to be tried again. */
export type ReplyOutcome = "sent" | "failed" | "retried"

const webhooks = MetricKey.counter("verbatim_webhooks_total", { description: "Webhook requests by provider and outcome" })
const plans = Metric.counter("verbatim_plans_total", {
  description:
    "Plan jobs by outcome; a session that waits (no model, planning held, another instance's lease) counts once when it starts waiting, not on every retry or probe"
})
const operatorErrors = Metric.counter("verbatim_model_operator_errors_total", {
  description: "Model calls refused for the operator's configuration (key, permission, model, billing), by fault"
})
const ignoredItems = MetricKey.counter("verbatim_webhook_items_ignored_total", {
  description: "Webhook items acknowledged and not acted on (statuses, reactions, update kinds not captured), by provider and kind"
})
const tokens = Metric.counter("verbatim_model_tokens_total", { description: "Model tokens by kind" })
const media = MetricKey.counter("verbatim_media_total", {
  description: "Attachment work by stage (fetch, transcribe) and outcome (done, retried, failed for good)"
})
const replies = Metric.counter("verbatim_replies_total", {
  description: "Reply attempts by outcome: sent, failed (given up) or retried (failed, tried again later)"
})
const parkedJobs = Metric.counter("verbatim_jobs_parked_total", {
  description: "Jobs no longer tried because running them stopped the process again and again, by job (plan, media, reply)"
})
const seconds = (start: number, count: number) => MetricBoundaries.exponential({ start, factor: 2, count })
const latency = MetricKey.histogram(
  "verbatim_http_request_duration_seconds",
  seconds(0.005, 12),
  "HTTP request latency by route template, method and status"
)
const planDuration = Metric.histogram("verbatim_plan_duration_seconds", seconds(0.01, 14), "Plan job run time by outcome")
const sendWindow = Metric.histogram(
  "verbatim_reply_send_window_seconds",
  seconds(0.001, 14),
  "From a reply's request leaving to its ReplySent being recorded: a crash inside this window sends the reply again"
)
const modelDuration = Metric.histogram("verbatim_model_call_duration_seconds", seconds(0.05, 12), "Model call time by outcome")

/**
 * A metric per tag values, built once, with the tags in its key. One tagged with `Metric.tagged`
 * builds and hashes its full key on every update, and these are updated on every request.
 */
const tagged = <Type extends MetricKeyType.MetricKeyType<any, any>>(key: MetricKey.MetricKey<Type>, ...names: ReadonlyArray<string>) => {
  const cache = new Map<string, Metric.Metric<Type, MetricKeyType.MetricKeyType.InType<Type>, MetricKeyType.MetricKeyType.OutType<Type>>>()
  return (...values: ReadonlyArray<string>) => {
    const id = values.join("\u0000")
    let metric = cache.get(id)
    if (metric === undefined) {
      metric = Metric.fromMetricKey(MetricKey.taggedWithLabels(key, names.map((name, i) => MetricLabel.make(name, values[i]!))))
      cache.set(id, metric)
    }
    return metric
  }
}

const toSeconds = (elapsed: Duration.Duration) => Duration.toMillis(elapsed) / 1000

const webhookCounter = tagged(webhooks, "provider", "outcome")

/** One answered webhook request, as its metrics see it. */
export interface WebhookAnswered {
  readonly provider: Provider
  readonly outcome: WebhookOutcome
  readonly route: string
  readonly status: number
  readonly ms: number
}

/**
 * Count webhook requests and record their latencies, a batch's in one step: the webhook counter
 * and `verbatim_http_request_duration_seconds`, as `requestLatency` records other routes.
 */
export const webhooksAnswered = (answered: ReadonlyArray<WebhookAnswered>): Effect.Effect<void> =>
  FiberRef.getWith(FiberRef.currentMetricLabels, (labels) =>
    Effect.sync(() => {
      for (const a of answered) {
        webhookCounter(a.provider, a.outcome).unsafeUpdate(1, labels)
        latencyHistogram(a.route, "POST", String(a.status)).unsafeUpdate(a.ms / 1000, labels)
      }
    }))

const ignoredCounter = tagged(ignoredItems, "provider", "kind")

/** Count a webhook item the service ignores, by its kind. */
export const ignored = (provider: Provider, kind: string): Effect.Effect<void> => Metric.increment(ignoredCounter(provider, kind))

/** Count a plan job (`planned`, `failed`, `held` …); see the metric's description for waiting sessions. */
export const plan = (outcome: string): Effect.Effect<void> => Metric.increment(Metric.tagged(plans, "outcome", outcome))

/** Record how long one plan job run took. */
export const planRun = (outcome: string, elapsed: Duration.Duration): Effect.Effect<void> =>
  Metric.update(Metric.tagged(planDuration, "outcome", outcome), toSeconds(elapsed))

/** Record how long one model call took; `outcome` is `ok` or the error's reason. */
export const modelCall = (outcome: string, elapsed: Duration.Duration): Effect.Effect<void> =>
  Metric.update(Metric.tagged(modelDuration, "outcome", outcome), toSeconds(elapsed))

/** Count a model call refused for the operator's configuration; planning is held meanwhile. */
export const operatorError = (fault: string): Effect.Effect<void> => Metric.increment(Metric.tagged(operatorErrors, "fault", fault))

/** What became of one attempt at an attachment's bytes or text. */
export type MediaOutcome = "done" | "retried" | "failed"

const mediaCounter = tagged(media, "stage", "outcome")

/** Count one attempt at an attachment. */
export const mediaAttempt = (stage: "fetch" | "transcribe", outcome: MediaOutcome): Effect.Effect<void> =>
  Metric.increment(mediaCounter(stage, outcome))

/** The work that can be parked after stopping the process: a session's plan, an attachment's reading, a reply's send. */
export type Job = "plan" | "media" | "reply"

/** Count one job parked after it stopped the process `maxCrashes` times in a row. */
export const parked = (job: Job): Effect.Effect<void> => Metric.increment(Metric.tagged(parkedJobs, "job", job))

/** Record one sent reply's window between its request leaving and its `ReplySent` being recorded. */
export const replySendWindow = (elapsed: Duration.Duration): Effect.Effect<void> => Metric.update(sendWindow, toSeconds(elapsed))

/** Count one reply attempt. */
export const reply = (outcome: ReplyOutcome): Effect.Effect<void> => Metric.increment(Metric.tagged(replies, "outcome", outcome))

/** Add the tokens of one model call. */
export const modelTokens = (usage: TokenUsage): Effect.Effect<void> =>
  Effect.forEach(
    [
      ["input", usage.inputTokens],
      ["output", usage.outputTokens],
      ["cache_read", usage.cacheReadTokens],
      ["cache_write", usage.cacheWriteTokens]
    ] as const,
    ([kind, n]) => Metric.incrementBy(Metric.tagged(tokens, "kind", kind), n),
    { discard: true }
  )

const latencyHistogram = tagged(latency, "route", "method", "status")

/** Record how long a request took; `route` is the matched template (`/api/notes/:id`), never the raw path. */
export const requestLatency = (route: string, method: string, status: number, elapsed: Duration.Duration): Effect.Effect<void> =>
  Metric.update(latencyHistogram(route, method, String(status)), toSeconds(elapsed))

/** The service's metrics (Effect `Metric`) and their Prometheus text exposition. */
import type { TokenUsage } from "@verbatim/domain/Events"
import type { Provider } from "@verbatim/domain/Ids"
import { type MetricPair, MetricState } from "effect"
import { Duration, Effect, Metric, MetricBoundaries } from "effect"

/** What became of one webhook request. */
export type WebhookOutcome = "accepted" | "unauthorized" | "bad-request" | "too-large" | "error"

const webhooks = Metric.counter("verbatim_webhooks_total", { description: "Webhook requests by provider and outcome" })
const plans = Metric.counter("verbatim_plans_total", { description: "Plan job runs by outcome" })
const operatorErrors = Metric.counter("verbatim_model_operator_errors_total", {
  description: "Model calls refused for the operator's configuration (key, permission, model, billing), by fault"
})
const ignoredItems = Metric.counter("verbatim_webhook_items_ignored_total", {
  description: "Webhook items acknowledged and not acted on (statuses, reactions, update kinds not captured), by provider and kind"
})
const tokens = Metric.counter("verbatim_model_tokens_total", { description: "Model tokens by kind" })
const latency = Metric.histogram(
  "verbatim_http_request_duration_seconds",
  MetricBoundaries.exponential({ start: 0.005, factor: 2, count: 12 }),
  "HTTP request latency by method and status"
)

/** A tagged metric per tag values, built once: building one hashes its key, on every request otherwise. */
const memo = <M>(make: (...tags: ReadonlyArray<string>) => M) => {
  const cache = new Map<string, M>()
  return (...tags: ReadonlyArray<string>): M => {
    const key = tags.join("\u0000")
    const found = cache.get(key)
    if (found !== undefined) return found
    const made = make(...tags)
    cache.set(key, made)
    return made
  }
}

const webhookCounter = memo((provider, outcome) => Metric.tagged(Metric.tagged(webhooks, "provider", provider!), "outcome", outcome!))

/** Count a webhook request. */
export const webhook = (provider: Provider, outcome: WebhookOutcome): Effect.Effect<void> =>
  Metric.increment(webhookCounter(provider, outcome))

const ignoredCounter = memo((provider, kind) => Metric.tagged(Metric.tagged(ignoredItems, "provider", provider!), "kind", kind!))

/** Count a webhook item the service ignores, by its kind. */
export const ignored = (provider: Provider, kind: string): Effect.Effect<void> => Metric.increment(ignoredCounter(provider, kind))

/** Count a plan job run (`planned`, `failed`, `busy` …). */
export const plan = (outcome: string): Effect.Effect<void> => Metric.increment(Metric.tagged(plans, "outcome", outcome))

/** Count a model call refused for the operator's configuration; planning is held meanwhile. */
export const operatorError = (fault: string): Effect.Effect<void> => Metric.increment(Metric.tagged(operatorErrors, "fault", fault))

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

/** Record how long a request took. */
const latencyHistogram = memo((method, status) => Metric.tagged(Metric.tagged(latency, "method", method!), "status", status!))

export const requestLatency = (method: string, status: number, elapsed: Duration.Duration): Effect.Effect<void> =>
  Metric.update(
    latencyHistogram(method, String(status)),
    Duration.toMillis(elapsed) / 1000
  )

/** A value read at scrape time (queue depths), exposed as a gauge. */
export interface Gauge {
  readonly name: string
  readonly help: string
  readonly value: number
}

const escape = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, "\\\"")

const labels = (pairs: ReadonlyArray<readonly [string, string]>) =>
  pairs.length === 0 ? "" : `{${pairs.map(([k, v]) => `${k}="${escape(v)}"`).join(",")}}`

const number = (n: number | bigint) => (n === Infinity ? "+Inf" : String(n))

const linesOf = (pair: MetricPair.MetricPair.Untyped): ReadonlyArray<string> => {
  const { name, tags } = pair.metricKey
  const base = tags.map((t) => [t.key, t.value] as const)
  const state = pair.metricState
  if (MetricState.isCounterState(state) || MetricState.isGaugeState(state)) {
    const value = MetricState.isCounterState(state) ? state.count : state.value
    return [`${name}${labels(base)} ${number(value)}`]
  }
  if (MetricState.isHistogramState(state)) {
    const finite = state.buckets.filter(([le]) => Number.isFinite(le))
    return [
      ...finite.map(([le, n]) => `${name}_bucket${labels([...base, ["le", number(le)]])} ${n}`),
      `${name}_bucket${labels([...base, ["le", "+Inf"]])} ${state.count}`,
      `${name}_sum${labels(base)} ${state.sum}`,
      `${name}_count${labels(base)} ${state.count}`
    ]
  }
  return []
}

const tagKey = (pair: MetricPair.MetricPair.Untyped) => pair.metricKey.tags.map((t) => `${t.key}=${t.value}`).join(",")

const typeOf = (pair: MetricPair.MetricPair.Untyped): string =>
  MetricState.isCounterState(pair.metricState)
    ? "counter"
    : MetricState.isHistogramState(pair.metricState)
    ? "histogram"
    : "gauge"

/** Every `verbatim_` metric and the given gauges in the Prometheus text format (version 0.0.4). */
export const prometheusText = (gauges: ReadonlyArray<Gauge>): Effect.Effect<string> =>
  Effect.map(Metric.snapshot, (pairs) => {
    const byName = new Map<string, Array<MetricPair.MetricPair.Untyped>>()
    for (const pair of pairs) {
      if (!pair.metricKey.name.startsWith("verbatim_")) continue
      byName.set(pair.metricKey.name, [...(byName.get(pair.metricKey.name) ?? []), pair])
    }
    const families = [...byName.entries()].sort(([a], [b]) => a.localeCompare(b)).flatMap(([name, family]) => [
      `# HELP ${name} ${family[0]!.metricKey.description._tag === "Some" ? family[0]!.metricKey.description.value : name}`,
      `# TYPE ${name} ${typeOf(family[0]!)}`,
      ...family.sort((a, b) => tagKey(a).localeCompare(tagKey(b))).flatMap(linesOf)
    ])
    const scraped = gauges.flatMap((g) => [`# HELP ${g.name} ${g.help}`, `# TYPE ${g.name} gauge`, `${g.name} ${g.value}`])
    return [...families, ...scraped].join("\n") + "\n"
  })

/** The Prometheus text exposition (version 0.0.4) of the `verbatim_` Effect metrics and of values read at scrape time. */
import { Effect, Metric, type MetricPair, MetricState } from "effect"

/** One sample of a family read at scrape time, with its labels. */
export interface Sample {
  readonly labels?: ReadonlyArray<readonly [string, string]>
  readonly value: number
}

/** A metric family read at scrape time (queue depths, process memory), with one HELP and TYPE line. */
export interface Family {
  readonly name: string
  readonly help: string
  readonly type: "gauge" | "counter"
  readonly samples: ReadonlyArray<Sample>
}

/** One unlabelled gauge. */
export const gauge = (name: string, help: string, value: number): Family => ({ name, help, type: "gauge", samples: [{ value }] })

const escape = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, "\\\"")

const labels = (pairs: ReadonlyArray<readonly [string, string]>) =>
  pairs.length === 0 ? "" : `{${pairs.map(([k, v]) => `${k}="${escape(v)}"`).join(",")}}`

const number = (n: number | bigint) =>
  n === Infinity ? "+Inf" : n === -Infinity ? "-Inf" : typeof n === "number" && Number.isNaN(n) ? "NaN" : String(n)

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

const familyLines = (family: Family): ReadonlyArray<string> => [
  `# HELP ${family.name} ${family.help}`,
  `# TYPE ${family.name} ${family.type}`,
  ...family.samples.map((s) => `${family.name}${labels(s.labels ?? [])} ${number(s.value)}`)
]

/** Every `verbatim_` metric and the given families in the Prometheus text format (version 0.0.4). */
export const prometheusText = (scraped: ReadonlyArray<Family>): Effect.Effect<string> =>
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
    return [...families, ...scraped.flatMap(familyLines)].join("\n") + "\n"
  })

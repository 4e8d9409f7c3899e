/**
 * Process and runtime metrics read at scrape time: resident memory, heap, event-loop delay,
 * garbage-collection pauses by kind, start time and uptime. The event-loop monitor and the GC
 * observer run for the layer's life; everything else is read when `/metrics` is scraped. These are
 * facts about the real process, so they come from Node, not from `Clock`.
 */
import { Context, Effect, Layer } from "effect"
import { constants, monitorEventLoopDelay, type PerformanceEntry, PerformanceObserver, performance } from "node:perf_hooks"
import { type Family, gauge } from "./Exposition.js"

const gcKinds: ReadonlyArray<readonly [number, string]> = [
  [constants.NODE_PERFORMANCE_GC_MINOR, "minor"],
  [constants.NODE_PERFORMANCE_GC_MAJOR, "major"],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, "incremental"],
  [constants.NODE_PERFORMANCE_GC_WEAKCB, "weakcb"]
]

const kindOf = (entry: PerformanceEntry): string => {
  const kind = (entry as PerformanceEntry & { readonly detail?: { readonly kind?: number } }).detail?.kind
  return gcKinds.find(([k]) => k === kind)?.[1] ?? "other"
}

/** Nanoseconds (the histogram's unit) to seconds; an empty histogram reads NaN, shown as 0. */
const nanos = (n: number) => (Number.isFinite(n) ? n / 1e9 : 0)

export class RuntimeMetrics extends Context.Tag("@verbatim/server/RuntimeMetrics")<RuntimeMetrics, {
  /** The families as they stand now. */
  readonly families: Effect.Effect<ReadonlyArray<Family>>
}>() {
  static readonly make = Effect.gen(function*() {
    const delay = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const histogram = monitorEventLoopDelay({ resolution: 10 })
        histogram.enable()
        return histogram
      }),
      (histogram) => Effect.sync(() => histogram.disable())
    )
    const pauses = new Map<string, { seconds: number; count: number }>(gcKinds.map(([, kind]) => [kind, { seconds: 0, count: 0 }]))
    yield* Effect.acquireRelease(
      Effect.sync(() => {
        const observer = new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            const total = pauses.get(kindOf(entry)) ?? { seconds: 0, count: 0 }
            pauses.set(kindOf(entry), { seconds: total.seconds + entry.duration / 1000, count: total.count + 1 })
          }
        })
        observer.observe({ entryTypes: ["gc"] })
        return observer
      }),
      (observer) => Effect.sync(() => observer.disconnect())
    )
    const families = Effect.sync((): ReadonlyArray<Family> => {
      const memory = process.memoryUsage()
      const uptime = process.uptime()
      const byKind = [...pauses.entries()].sort(([a], [b]) => a.localeCompare(b))
      return [
        gauge("process_resident_memory_bytes", "Resident memory size in bytes", memory.rss),
        gauge("process_start_time_seconds", "Start time of the process since the Unix epoch in seconds", Math.floor(performance.timeOrigin / 1000)),
        gauge("process_uptime_seconds", "Seconds since the process started", uptime),
        gauge("nodejs_heap_size_used_bytes", "V8 heap used in bytes", memory.heapUsed),
        gauge("nodejs_heap_size_total_bytes", "V8 heap allocated in bytes", memory.heapTotal),
        gauge("nodejs_eventloop_lag_p50_seconds", "Median event-loop delay in seconds since start", nanos(delay.percentile(50))),
        gauge("nodejs_eventloop_lag_p99_seconds", "99th percentile event-loop delay in seconds since start", nanos(delay.percentile(99))),
        gauge("nodejs_eventloop_lag_max_seconds", "Longest event-loop delay in seconds since start", nanos(delay.max)),
        {
          name: "nodejs_gc_pause_seconds_total",
          help: "Time spent in garbage-collection pauses, by kind",
          type: "counter",
          samples: byKind.map(([kind, t]) => ({ labels: [["kind", kind]], value: t.seconds }))
        },
        {
          name: "nodejs_gc_runs_total",
          help: "Garbage collections, by kind",
          type: "counter",
          samples: byKind.map(([kind, t]) => ({ labels: [["kind", kind]], value: t.count }))
        }
      ]
    })
    return RuntimeMetrics.of({ families })
  })

  /** The monitors run for the layer's life. */
  static readonly layer = Layer.scoped(RuntimeMetrics, RuntimeMetrics.make)
}

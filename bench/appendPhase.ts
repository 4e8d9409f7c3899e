/**
 * The store benchmarks' unit of work: `count` appends from `appenders` concurrent callers, each
 * one webhook-sized `MessageReceived` with its idempotency key into a new session stream at
 * expected version 0, through the live path (group commit, inline projections).
 */
import { EventStore } from "@verbatim/projections/EventStore"
import * as G from "@verbatim/testkit/Given"
import { Effect } from "effect"
import { performance } from "node:perf_hooks"

export interface AppendRun {
  readonly appenders: number
  readonly appends: number
  readonly perSecond: number
  /** Process CPU (user + system) per append, in µs. */
  readonly cpuMicros: number
  readonly failed: number
}

/** Run the appends; streams and keys are named after `label`, so phases never collide. */
export const appendPhase = (label: string, appenders: number, count: number) =>
  Effect.gen(function*() {
    const store = yield* EventStore
    let failed = 0
    const cpu = process.cpuUsage()
    const start = performance.now()
    yield* Effect.forEach(
      Array.from({ length: count }, (_, i) => i),
      (i) => {
        const session = `${label}-${i % appenders}-${Math.floor(i / appenders)}`
        return store.append(G.sessionStream(session), 0, [G.messageReceived(session, 1, `message ${i} about Ana and the garden`)], {
          idempotencyKeys: [{ provider: "telegram", providerMessageId: `${label}-${i}` }]
        }).pipe(Effect.catchAll(() => Effect.sync(() => failed++)))
      },
      { concurrency: appenders, discard: true }
    )
    const ms = performance.now() - start
    const used = process.cpuUsage(cpu)
    return {
      appenders,
      appends: count,
      perSecond: Math.round(count / (ms / 1000)),
      cpuMicros: Math.round((used.user + used.system) / count),
      failed
    } satisfies AppendRun
  })

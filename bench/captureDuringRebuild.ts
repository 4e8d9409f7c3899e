/**
 * The last half of `bench:store`: capture while `verbatim rebuild` runs in another process.
 * Appenders capture at a steady pace through the live path (webhook-sized messages with their
 * idempotency keys, each timed), first for a while with nothing else running and then for as long
 * as the rebuild runs. Reports each phase's p50/p99, the rebuild's rate against the floor measured
 * in the same run, and how many answered appends are missing from the log or from the read model
 * the rebuild left (on PostgreSQL one it swapped in while they were captured).
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { cliNodeFlags } from "@verbatim/server/scripts/bundle"
import { EventStore } from "@verbatim/projections/EventStore"
import * as G from "@verbatim/testkit/Given"
import { Deferred, Effect, Exit } from "effect"
import { spawn } from "node:child_process"
import { performance } from "node:perf_hooks"

/** Concurrent appenders, and the pause each takes between its appends (about 230 captures a second in all, measured). */
const appenders = 4
const pauseMs = 12
const idleSeconds = 15

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0
const ms = (n: number) => Math.round(n * 10) / 10

/** Append until `done` resolves; each append's latency, and the sessions that were answered. */
const captureUntil = (label: string, done: Deferred.Deferred<void>) =>
  Effect.gen(function*() {
    const store = yield* EventStore
    const latencies: Array<number> = []
    const answered: Array<string> = []
    let failed = 0
    yield* Effect.forEach(Array.from({ length: appenders }, (_, a) => a), (a) =>
      Effect.gen(function*() {
        for (let i = 0; !(yield* Deferred.isDone(done)); i++) {
          const session = `${label}-${a}-${i}`
          const start = performance.now()
          const appended = yield* Effect.either(store.append(G.sessionStream(session), 0, [
            G.messageReceived(session, 1, `message ${i} from appender ${a} about Ana and the garden`)
          ], { idempotencyKeys: [{ provider: "telegram", providerMessageId: session }] }))
          latencies.push(performance.now() - start)
          if (appended._tag === "Right") answered.push(session)
          else failed++
          yield* Effect.sleep(pauseMs)
        }
      }), { concurrency: "unbounded", discard: true })
    const sorted = latencies.sort((x, y) => x - y)
    return {
      appends: sorted.length,
      failed,
      answered,
      p50: ms(percentile(sorted, 0.5)),
      p90: ms(percentile(sorted, 0.9)),
      p99: ms(percentile(sorted, 0.99)),
      max: ms(sorted.at(-1) ?? 0)
    }
  })

/** How many of the answered sessions the log and the read model hold. */
const held = (label: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const [events] = yield* sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM events WHERE stream LIKE ${`session-${label}-%`}`
    const [messages] = yield* sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM messages WHERE session_id LIKE ${`${label}-%`}`
    return { events: Number(events?.n ?? 0), messages: Number(messages?.n ?? 0) }
  })

/** Run `verbatim rebuild` from `bundle` in a child process; resolves `done` when it exits. */
const rebuildChild = (bundle: string, env: Readonly<Record<string, string>>, done: Deferred.Deferred<void>) =>
  Effect.async<{ readonly ok: boolean; readonly stdout: string; readonly ms: number }>((resume) => {
    const start = performance.now()
    const child = spawn(process.execPath, [...cliNodeFlags, bundle, "rebuild"], { env: { PATH: process.env["PATH"] ?? "", ...env } })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.stderr.on("data", (chunk) => (stderr += chunk))
    child.on("exit", (code) => {
      Deferred.unsafeDone(done, Exit.void)
      resume(Effect.succeed({ ok: code === 0, stdout: code === 0 ? stdout : stdout + stderr.slice(-2000), ms: performance.now() - start }))
    })
  })

/** Capture idle, then during a rebuild; print both and what was lost. */
export const captureDuringRebuild = (
  name: string,
  side: string,
  bundle: string,
  env: Readonly<Record<string, string>>,
  floorPerSecond: number
) =>
  Effect.gen(function*() {
    const idleDone = yield* Deferred.make<void>()
    yield* Effect.fork(Effect.delay(Deferred.succeed(idleDone, undefined), `${idleSeconds} seconds`))
    const idle = yield* captureUntil(`idle-${side}`, idleDone)
    const rebuildDone = yield* Deferred.make<void>()
    const [during, rebuilt] = yield* Effect.all([captureUntil(`during-${side}`, rebuildDone), rebuildChild(bundle, env, rebuildDone)], {
      concurrency: 2
    })
    if (!rebuilt.ok) throw new Error(`verbatim rebuild failed: ${rebuilt.stdout}`)
    const events = Number(/from (\d+) event/.exec(rebuilt.stdout)?.[1] ?? 0)
    const kept = yield* held(`during-${side}`)
    const perSecond = Math.round(events / (rebuilt.ms / 1000))
    const { answered: _idle, ...idleFigures } = idle
    const { answered, ...duringFigures } = during
    console.log(JSON.stringify({
      backend: name,
      phase: "capture during a rebuild",
      side,
      idle: idleFigures,
      during: duringFigures,
      p99DuringOverIdle: Math.round((during.p99 / idle.p99) * 100) / 100,
      lostFromLog: answered.length - kept.events,
      lostFromReadModel: answered.length - kept.messages,
      rebuild: { events, seconds: ms(rebuilt.ms / 1000), perSecond, ofFloor: Math.round((perSecond / floorPerSecond) * 100) / 100 }
    }))
  })

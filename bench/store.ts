/**
 * Benchmark: the event store on each backend. Append throughput with 1 and 64 concurrent
 * appenders (each append one webhook-sized MessageReceived with its idempotency key), rows
 * counted afterwards; then rebuild throughput over a large log against a raw scan of the same
 * table (SELECT plus JSON.parse) and against the floor for the same work (that scan plus writing
 * the rebuild's rows with nothing in between, see rebuildFloor.ts), in the same run, with peak
 * RSS. Rebuild and floor alternate `--rounds` times and the medians are reported, because this
 * machine is shared and a single run is noise. Last, capture timed idle and then while a rebuild
 * runs, with what was lost (captureDuringRebuild.ts). SQLite runs at synchronous FULL (a 200 survives
 * power loss) and NORMAL (survives a process crash only).
 *
 *   npm run bench:store -- [--events 1000000] [--appends 2000] [--rounds 1] [--only sqlite-FULL,postgresql]
 *     [--before packages/server/build/verbatim-before.mjs]   (an earlier commit's bundle, timed in the same rounds)
 * PostgreSQL is included when VERBATIM_DATABASE_URL is set.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import * as Store from "@verbatim/projections/Store"
import type { Services } from "@verbatim/projections/Store"
import { Config, Effect, Layer, Option, Redacted } from "effect"
import { bundle, bundlePath } from "@verbatim/server/scripts/bundle"
import { mkdirSync, rmSync } from "node:fs"
import { availableParallelism } from "node:os"
import { join, resolve } from "node:path"
import { performance } from "node:perf_hooks"
import { appendPhase } from "./appendPhase.js"
import { captureDuringRebuild } from "./captureDuringRebuild.js"
import { fillLog } from "./fillLog.js"
import { numberFlag } from "./flags.js"
import { emptyPg, emptySqlite, snapshotPg, snapshotSqlite, writePg, writeSqlite } from "./rebuildFloor.js"
import type { FloorOps } from "./rebuildRounds.js"
import { rebuildRounds } from "./rebuildRounds.js"

const totalEvents = numberFlag("events", 1_000_000)
const appendCount = numberFlag("appends", 2_000)
const rounds = numberFlag("rounds", 1)
const onlyAt = process.argv.indexOf("--only")
const only = onlyAt === -1 ? undefined : process.argv[onlyAt + 1]!.split(",")
const beforeAt = process.argv.indexOf("--before")
const before = beforeAt === -1 ? undefined : resolve(process.argv[beforeAt + 1]!)

/** Append `count` messages from `appenders` concurrent callers; count the rows afterwards. */
const countedAppendPhase = (label: string, appenders: number, count: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const run = yield* appendPhase(label, appenders, count)
    const [row] = yield* sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM events WHERE stream LIKE ${`session-${label}-%`}`
    const rows = Number(row?.n ?? 0)
    return { appenders, appends: count, perSecond: run.perSecond, failed: run.failed, lost: count - run.failed - rows }
  })

/** SELECT every event a page at a time and JSON.parse each payload: the floor a rebuild is measured against. */
const rawScan = Effect.gen(function*() {
  const sql = yield* SqlClient
  let cursor = 0
  let count = 0
  while (true) {
    const rows = yield* sql<{ position: number | string; payload: string }>`SELECT position, payload FROM events
      WHERE position > ${cursor} ORDER BY position LIMIT 2000`
    for (const row of rows) JSON.parse(row.payload)
    count += rows.length
    if (rows.length < 2000) return count
    cursor = Number(rows[rows.length - 1]!.position)
  }
})

/** Time an effect. */
const measured = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const start = performance.now()
    const value = yield* effect
    return { value, ms: performance.now() - start }
  })

const runBackend = (name: string, layer: Layer.Layer<Services, unknown>, commandEnv: Readonly<Record<string, string>>, floor: FloorOps) =>
  Effect.gen(function*() {
    const one = yield* countedAppendPhase("a1", 1, appendCount)
    const many = yield* countedAppendPhase("a64", 64, appendCount * 10)
    console.log(JSON.stringify({ backend: name, phase: "append", one, many, speedup: Math.round((many.perSecond / one.perSecond) * 10) / 10 }))
    const filled = yield* measured(fillLog(totalEvents))
    console.log(JSON.stringify({ backend: name, phase: "fill", events: filled.value, seconds: Math.round(filled.ms / 100) / 10 }))
    const floorPerSecond = yield* rebuildRounds({ name, rounds, commandEnv, floor, scan: measured(rawScan), before })
    for (const [side, file] of before === undefined ? [["after", bundlePath]] : [["before", before], ["after", bundlePath]]) {
      yield* captureDuringRebuild(name, side!, file!, commandEnv, floorPerSecond)
    }
  }).pipe(Effect.provide(layer))

const program = Effect.gen(function*() {
  const url = yield* Config.option(Config.redacted("VERBATIM_DATABASE_URL"))
  const dir = join(".bench-data", `store-${process.pid}`)
  mkdirSync(dir, { recursive: true })
  console.log(JSON.stringify({ node: process.version, events: totalEvents, appends: appendCount, cpus: availableParallelism() }))
  yield* Effect.promise(bundle)
  for (const synchronous of ["FULL", "NORMAL"] as const) {
    // Where `verbatim` keeps its database for VERBATIM_DATA_DIR.
    if (only !== undefined && !only.includes(`sqlite-${synchronous}`)) continue
    const dataDir = resolve(dir, synchronous)
    mkdirSync(dataDir, { recursive: true })
    const filename = join(dataDir, "verbatim.db")
    const snapshotFile = join(dataDir, "floor-snapshot.db")
    yield* runBackend(`sqlite-${synchronous}`, Store.layerSqlite({ filename, synchronous }), {
      VERBATIM_DATA_DIR: dataDir,
      VERBATIM_SQLITE_SYNCHRONOUS: synchronous
    }, {
      empty: Effect.sync(() => emptySqlite(filename)),
      snapshot: Effect.sync(() => snapshotSqlite(filename, snapshotFile)),
      write: Effect.sync(() => writeSqlite(filename, snapshotFile, synchronous))
    })
  }
  if (Option.isSome(url) && (only === undefined || only.includes("postgresql"))) {
    const layer = Store.layerPg(Redacted.value(url.value), { maxConnections: 16 })
    yield* runBackend("postgresql", layer, { VERBATIM_DATABASE_URL: Redacted.value(url.value) }, {
      empty: emptyPg,
      snapshot: snapshotPg,
      write: writePg
    })
  }
  else console.log(JSON.stringify({ backend: "postgresql", skipped: "VERBATIM_DATABASE_URL is not set" }))
  rmSync(dir, { recursive: true, force: true })
  console.log(JSON.stringify({ maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }))
})

Effect.runPromise(program).catch((error) => {
  console.error(error)
  process.exitCode = 1
})

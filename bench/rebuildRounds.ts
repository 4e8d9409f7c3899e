/**
 * The rebuild half of `bench:store`: `verbatim rebuild` against the raw scan and the floor
 * (rebuildFloor.ts), alternated `rounds` times with medians reported, because the machine is
 * shared and one run is noise. With `before`, a second bundle (an earlier commit's, built into
 * packages/server/build so it resolves the same node_modules) is timed in the same rounds, so a
 * before → after needs no second run at another hour.
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import { bundlePath, cliNodeFlags } from "@verbatim/server/scripts/bundle"
import { Effect } from "effect"
import { spawnSync } from "node:child_process"
import { performance } from "node:perf_hooks"

/** How a backend empties its read model, snapshots it, and writes the floor (returns milliseconds). */
export interface FloorOps {
  readonly empty: Effect.Effect<void, unknown, SqlClient>
  readonly snapshot: Effect.Effect<void, unknown, SqlClient>
  readonly write: Effect.Effect<number, unknown, SqlClient>
}

export interface RoundsOptions {
  readonly name: string
  readonly rounds: number
  readonly commandEnv: Readonly<Record<string, string>>
  readonly floor: FloorOps
  /** Events and milliseconds of a raw scan of the log. */
  readonly scan: Effect.Effect<{ readonly value: number; readonly ms: number }, unknown, SqlClient>
  readonly before?: string | undefined
}

const rate = (count: number, ms: number) => Math.round(count / (ms / 1000))

export const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Written by the rebuild child at exit: its peak resident memory. */
const reportPeakRss = `data:text/javascript,process.on("exit",()=>process.stderr.write("peak-rss-kb "+process.resourceUsage().maxRSS+"\\n"))`

/**
 * Run a `verbatim` command from `bundle` (with the CLI's Node flags, or `nodeFlags`) in a fresh
 * process: its exit, output, wall time (including the command's start-up, about 0.3 s) and peak
 * RSS (null when it died before exiting, as on running out of heap).
 */
export const cliRun = (bundle: string, env: Readonly<Record<string, string>>, args: ReadonlyArray<string>, nodeFlags = cliNodeFlags) => {
  const start = performance.now()
  const child = spawnSync(process.execPath, [...nodeFlags, "--import", reportPeakRss, bundle, ...args], {
    env: { PATH: process.env["PATH"] ?? "", ...env },
    encoding: "utf8",
    maxBuffer: 1 << 24
  })
  const ms = performance.now() - start
  const peak = /peak-rss-kb (\d+)/.exec(child.stderr)
  return { ok: child.status === 0, exit: child.status ?? child.signal, stdout: child.stdout, stderr: child.stderr, ms, maxRssMb: peak === null ? null : Math.round(Number(peak[1]) / 1024) }
}

/** `cliRun` that throws unless the command succeeded. */
export const cliInChild = (bundle: string, env: Readonly<Record<string, string>>, args: ReadonlyArray<string>) => {
  const run = cliRun(bundle, env, args)
  if (!run.ok || run.maxRssMb === null) throw new Error(`verbatim ${args.join(" ")} failed (${run.exit}): ${run.stdout}${run.stderr.slice(-2000)}`)
  return { ...run, maxRssMb: run.maxRssMb }
}

/**
 * Rebuild with the command users run, `npm run verbatim -- rebuild` (a bundle, with the CLI's
 * Node flags), in a fresh process: its peak RSS is the rebuild's own, and its time includes the
 * command's start-up (about 0.3 s).
 */
export const rebuildInChild = (bundle: string, env: Readonly<Record<string, string>>) =>
  Effect.sync(() => {
    const run = cliInChild(bundle, env, ["rebuild"])
    const events = /rebuilt every projection from (\d+) event/.exec(run.stdout)
    if (events === null) throw new Error(`verbatim rebuild said: ${run.stdout}`)
    return { events: Number(events[1]), ms: run.ms, maxRssMb: run.maxRssMb }
  })

const round1 = (n: number) => Math.round(n * 10) / 10

/** Run the rounds and print each, then the medians and ratios; returns the floor's median rate. */
export const rebuildRounds = (options: RoundsOptions) =>
  Effect.gen(function*() {
    const { floor, name } = options
    const sides = options.before === undefined ? [["after", bundlePath]] : [["before", options.before], ["after", bundlePath]]
    const scans: Array<number> = []
    const floors: Array<number> = []
    const rebuilds: Record<string, Array<number>> = { before: [], after: [] }
    const peaks: Record<string, number> = { before: 0, after: 0 }
    let events = 0
    for (let round = 0; round < options.rounds; round++) {
      const scan = yield* options.scan
      const line: Record<string, unknown> = { backend: name, phase: "round", round, scanSeconds: round1(scan.ms / 1000) }
      // Alternate so a neighbour's burst of load lands on every side, not on one.
      for (const [side, bundle] of round % 2 === 0 ? sides : [...sides].reverse()) {
        yield* floor.empty
        const rebuilt = yield* rebuildInChild(bundle!, options.commandEnv)
        events = rebuilt.events
        peaks[side!] = Math.max(peaks[side!]!, rebuilt.maxRssMb)
        rebuilds[side!]!.push(rate(rebuilt.events, rebuilt.ms))
        line[`${side}Seconds`] = round1(rebuilt.ms / 1000)
      }
      if (round === 0) yield* floor.snapshot
      yield* floor.empty
      const writeMs = yield* floor.write
      scans.push(rate(scan.value, scan.ms))
      floors.push(rate(events, scan.ms + writeMs))
      console.log(JSON.stringify({ ...line, floorWriteSeconds: round1(writeMs / 1000) }))
    }
    const summary: Record<string, unknown> = {
      backend: name,
      phase: "rebuild",
      events,
      rounds: options.rounds,
      rawScanPerSecond: median(scans),
      floorPerSecond: median(floors)
    }
    for (const [side] of sides) {
      const perSecond = median(rebuilds[side!]!)
      summary[side!] = {
        perSecond,
        ofScan: Math.round((perSecond / median(scans)) * 100) / 100,
        ofFloor: Math.round((perSecond / median(floors)) * 100) / 100,
        peakRssMb: peaks[side!]
      }
    }
    if (options.before !== undefined) summary["afterOverBefore"] = Math.round((median(rebuilds["after"]!) / median(rebuilds["before"]!)) * 100) / 100
    console.log(JSON.stringify(summary))
    return median(floors)
  })

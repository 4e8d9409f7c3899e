/**
 * Ingest benchmark: autocannon (64 connections, unique update ids) against the Telegram webhook
 * of the real server and against a one-insert-per-request baseline, at synchronous FULL and
 * NORMAL, in the same run; with `--slow-fsync`, both again at FULL on a disk whose flush costs
 * SLOWFSYNC_US microseconds more (../shared/tools/slowfsync.c preloaded into both servers, 1,000
 * by default), because this machine's flush (about 0.15 ms) is faster than most real disks' and
 * group commit's worth shows only where a flush costs something. Reports requests/s, p50, p99,
 * peak RSS and the ratio.
 * With `--before BUNDLE`, an earlier commit's bundle (`npm run bundle` there, its `build/` copied
 * aside) is driven too, after the current one in each mode.
 * Usage: npm run bench:ingest [-- --seconds 10] [-- --slow-fsync [--slow-fsync-us 1000]] [-- --before DIR/verbatim.mjs]
 */
import autocannon from "autocannon"
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { bundle, bundlePath } from "@verbatim/server/scripts/bundle"
import { slowFsyncEnv } from "./slowFsync.js"
import { freePort, peakRssMb, secret, senders, startBaseline, startVerbatim, telegramBody, waitForListening } from "./loadTargets.js"

const secondsAt = process.argv.indexOf("--seconds")
const seconds = secondsAt === -1 ? 10 : Number(process.argv[secondsAt + 1])
const connections = 64
const slowAt = process.argv.indexOf("--slow-fsync-us")
const slowUs = slowAt === -1 ? 1000 : Number(process.argv[slowAt + 1])
const slow = process.argv.includes("--slow-fsync") || slowAt !== -1
const beforeAt = process.argv.indexOf("--before")
const before = beforeAt === -1 ? undefined : process.argv[beforeAt + 1]!
const baselineName = "baseline (node:http + better-sqlite3)"
/** Each service under test: this checkout's bundle, and the earlier one's when given. */
const services = [
  { name: "verbatim POST /webhooks/telegram", bundle: bundlePath },
  ...(before === undefined ? [] : [{ name: `before (${before})`, bundle: before }])
]

interface Result {
  readonly name: string
  readonly synchronous: string
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly errors: number
  readonly non2xx: number
  readonly rssMb: number
}

let updateId = 1
const body = () => telegramBody(updateId++)

const load = (port: number) =>
  autocannon({
    url: `http://127.0.0.1:${port}/webhooks/telegram`,
    connections,
    duration: seconds,
    requests: [{
      method: "POST",
      headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": secret },
      setupRequest: (request) => ({ ...request, body: body() })
    }]
  })

const run = async (name: string, synchronous: string, start: (port: number, dir: string) => ChildProcess) => {
  const dir = mkdtempSync(join(tmpdir(), "verbatim-bench-"))
  const port = await freePort()
  const child = start(port, dir)
  try {
    await waitForListening(child)
    const result = await load(port)
    return {
      name,
      synchronous,
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors,
      non2xx: result.non2xx,
      rssMb: peakRssMb(child.pid!)
    } satisfies Result
  } finally {
    child.kill("SIGTERM")
    await new Promise((resolve) => setTimeout(resolve, 300))
    rmSync(dir, { recursive: true, force: true })
  }
}

await bundle()
const results: Array<Result> = []
for (const synchronous of ["FULL", "NORMAL"]) {
  results.push(await run(baselineName, synchronous, startBaseline(synchronous)))
  for (const s of services) results.push(await run(s.name, synchronous, startVerbatim(synchronous, {}, s.bundle)))
}
if (slow) {
  const extra = slowFsyncEnv(resolve(".bench-data"), slowUs)
  const label = `FULL, flush +${slowUs} µs`
  results.push(await run(baselineName, label, startBaseline("FULL", extra)))
  for (const s of services) results.push(await run(s.name, label, startVerbatim("FULL", extra, s.bundle)))
}
console.log(`${connections} connections, ${seconds} s each, ${senders} senders, unique update ids\n`)
console.log("| server | synchronous | req/s | p50 ms | p99 ms | errors | non-2xx | peak RSS MB |")
console.log("|---|---|---|---|---|---|---|---|")
for (const r of results) {
  console.log(`| ${r.name} | ${r.synchronous} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${r.rssMb.toFixed(0)} |`)
}
for (const synchronous of [...new Set(results.map((r) => r.synchronous))]) {
  const [base, ...ours] = results.filter((r) => r.synchronous === synchronous)
  for (const r of ours) console.log(`\n${synchronous}: ${r.name} / baseline req/s = ${(r.rps / base!.rps).toFixed(2)}×, p99 ${r.p99} vs ${base!.p99} ms`)
}

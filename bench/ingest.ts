/**
 * Ingest benchmark: autocannon (64 connections, unique update ids) against the Telegram webhook
 * of the real server and against a one-insert-per-request baseline, at synchronous FULL and
 * NORMAL, in the same run. Reports requests/s, p50, p99, peak RSS and the ratio.
 * Usage: npm run bench:ingest [-- --seconds 10]
 */
import autocannon from "autocannon"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { bundle, bundlePath, serveNodeFlags } from "@verbatim/server/scripts/bundle"
import { telegramUpdate } from "./reliability/Server.js"

const secondsAt = process.argv.indexOf("--seconds")
const seconds = secondsAt === -1 ? 10 : Number(process.argv[secondsAt + 1])
const connections = 64
const senders = 500
const secret = "bench-secret"

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

const peakRssMb = (pid: number): number => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const match = /VmHWM:\s+(\d+) kB/.exec(status)
  return match === null ? NaN : Number(match[1]) / 1024
}

const waitForListening = (child: ChildProcess): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server did not start in 60 s")), 60_000)
    child.stdout?.on("data", (data: Buffer) => {
      if (/listening/i.test(data.toString())) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.on("exit", (code) => reject(new Error(`server exited with ${code}`)))
  })

let updateId = 1
const body = () => {
  const id = updateId++
  return telegramUpdate(id, 100_000_000 + (id % senders), `Note ${id}: Alice prefers tea over coffee and is moving to Lisbon in March.`)
}

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
  const port = 20_000 + Math.floor(Math.random() * 20_000)
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

const baseline = (synchronous: string) => (port: number, dir: string) =>
  spawn(process.execPath, ["--import", "tsx", "bench/ingest-baseline.ts", String(port), join(dir, "baseline.db"), synchronous], { stdio: ["ignore", "pipe", "inherit"] })

const verbatim = (synchronous: string) => (port: number, dir: string) =>
  spawn(process.execPath, [...serveNodeFlags, bundlePath, "serve"], {
    stdio: ["ignore", "pipe", "inherit"],
    env: {
      ...process.env,
      PORT: String(port),
      VERBATIM_DATA_DIR: dir,
      VERBATIM_SQLITE_SYNCHRONOUS: synchronous,
      TELEGRAM_WEBHOOK_SECRET: secret,
      VERBATIM_SESSION_IDLE_SECONDS: "3600",
      VERBATIM_ALLOWED_SENDERS: Array.from({ length: senders }, (_, i) => `telegram:${100_000_000 + i}`).join(","),
      ANTHROPIC_API_KEY: ""
    }
  })

await bundle()
const results: Array<Result> = []
for (const synchronous of ["FULL", "NORMAL"]) {
  results.push(await run("baseline (node:http + better-sqlite3)", synchronous, baseline(synchronous)))
  results.push(await run("verbatim POST /webhooks/telegram", synchronous, verbatim(synchronous)))
}
console.log(`${connections} connections, ${seconds} s each, ${senders} senders, unique update ids\n`)
console.log("| server | synchronous | req/s | p50 ms | p99 ms | errors | non-2xx | peak RSS MB |")
console.log("|---|---|---|---|---|---|---|---|")
for (const r of results) {
  console.log(`| ${r.name} | ${r.synchronous} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${r.rssMb.toFixed(0)} |`)
}
for (const synchronous of ["FULL", "NORMAL"]) {
  const [base, ours] = results.filter((r) => r.synchronous === synchronous)
  console.log(`\n${synchronous}: verbatim/baseline req/s = ${(ours!.rps / base!.rps).toFixed(2)}×, p99 ${ours!.p99} vs ${base!.p99} ms`)
}

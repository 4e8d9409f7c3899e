/**
 * Where a webhook request's CPU goes: the server process's CPU time per request (user + system,
 * from /proc, so the load generator's share of the machine does not count) for the bare HTTP
 * stacks, for the service's health check, for a webhook it ignores and for one it captures, and
 * for the one-insert baseline of `bench:ingest`. 64 connections, unique update ids, after a
 * warm-up. With `--before BUNDLE`, an earlier commit's bundle captures too, right after this one.
 * With `--rounds N`, every target is measured N times, the order of the list reversed every other
 * round, and the median is reported: on a shared machine one probe varies by ±25%.
 * Usage: npm run bench:http-floor [-- --requests 20000] [-- --rounds 5] [-- --before DIR/verbatim.mjs]
 */
import autocannon from "autocannon"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { bundle } from "@verbatim/server/scripts/bundle"
import { cpuMs, freePort, secret, startBaseline, startVerbatim, telegramBody, waitForListening } from "./loadTargets.js"
import { median } from "./rebuildRounds.js"

const requestsAt = process.argv.indexOf("--requests")
const requests = requestsAt === -1 ? 20_000 : Number(process.argv[requestsAt + 1])
const warmUp = Math.min(2_000, requests)
const roundsAt = process.argv.indexOf("--rounds")
const rounds = roundsAt === -1 ? 1 : Number(process.argv[roundsAt + 1])
const beforeAt = process.argv.indexOf("--before")
const before = beforeAt === -1 ? undefined : process.argv[beforeAt + 1]!

interface Target {
  readonly name: string
  readonly start: (port: number, dir: string) => ChildProcess
  readonly method: "GET" | "POST"
  readonly path: string
  readonly body?: (updateId: number) => string
}

const bare = (kind: string) => (port: number) =>
  spawn(process.execPath, ["--import", "tsx", "bench/http-floor-servers.ts", kind, String(port)], { stdio: ["ignore", "pipe", "inherit"] })

const webhook = "/webhooks/telegram"
const targets: ReadonlyArray<Target> = [
  { name: "node:http (read the body, answer 200)", start: bare("node-http"), method: "POST", path: webhook, body: telegramBody },
  { name: "@effect/platform HttpServer.serve (same)", start: bare("effect-serve"), method: "POST", path: webhook, body: telegramBody },
  { name: "@effect/platform HttpRouter (same)", start: bare("effect-router"), method: "POST", path: webhook, body: telegramBody },
  { name: "verbatim GET /healthz", start: startVerbatim("NORMAL"), method: "GET", path: "/healthz" },
  {
    name: "verbatim webhook, update ignored (read, authenticate, decode)",
    start: startVerbatim("NORMAL"),
    method: "POST",
    path: webhook,
    body: (updateId) => JSON.stringify({ update_id: updateId })
  },
  { name: "verbatim webhook, message captured (NORMAL)", start: startVerbatim("NORMAL"), method: "POST", path: webhook, body: telegramBody },
  ...(before === undefined ? [] : [{
    name: `before (${before}), message captured (NORMAL)`,
    start: startVerbatim("NORMAL", {}, before),
    method: "POST" as const,
    path: webhook,
    body: telegramBody
  }]),
  { name: "baseline: node:http + one better-sqlite3 insert (NORMAL)", start: startBaseline("NORMAL"), method: "POST", path: webhook, body: telegramBody }
]

let updateId = 1
const fire = (port: number, target: Target, amount: number) =>
  autocannon({
    url: `http://127.0.0.1:${port}${target.path}`,
    connections: 64,
    amount,
    requests: [{
      method: target.method,
      headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": secret },
      ...(target.body === undefined ? {} : { setupRequest: (request) => ({ ...request, body: target.body!(updateId++) }) })
    }]
  })

const measure = async (target: Target) => {
  const dir = mkdtempSync(join(tmpdir(), "verbatim-floor-"))
  const port = await freePort()
  const child = target.start(port, dir)
  try {
    await waitForListening(child)
    await fire(port, target, warmUp)
    const before = cpuMs(child.pid!)
    const result = await fire(port, target, requests)
    const perRequest = (cpuMs(child.pid!) - before) / requests
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors`)
    return { name: target.name, perRequest, rps: result.requests.average }
  } finally {
    child.kill("SIGTERM")
    await new Promise((resolve) => setTimeout(resolve, 300))
    rmSync(dir, { recursive: true, force: true })
  }
}

await bundle()
const samples = new Map<string, Array<{ readonly perRequest: number; readonly rps: number }>>()
for (let round = 0; round < rounds; round++) {
  for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
    const r = await measure(target)
    samples.set(target.name, [...(samples.get(target.name) ?? []), r])
  }
}
console.log(`64 connections, ${requests} requests after ${warmUp} to warm up, ${rounds} round(s), medians\n`)
console.log("| server | CPU ms/request | req/s | requests/s one core allows |")
console.log("|---|---|---|---|")
for (const target of targets) {
  const of = samples.get(target.name)!
  const perRequest = median(of.map((s) => s.perRequest))
  const spread = rounds === 1 ? "" : ` (${of.map((s) => s.perRequest.toFixed(3)).join(", ")})`
  console.log(`| ${target.name} | ${perRequest.toFixed(3)}${spread} | ${median(of.map((s) => s.rps)).toFixed(0)} | ${Math.round(1000 / perRequest)} |`)
}

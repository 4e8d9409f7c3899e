import autocannon from "autocannon"
import { spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { bundlePath, serveNodeFlags } from "@verbatim/server/scripts/bundle"
import { cpuMs, peakRssMb, secret, senders, telegramBody, waitForListening } from "./loadTargets.js"
const dir = mkdtempSync(join(tmpdir(), "prof-"))
const port = 18000 + Math.floor(Math.random() * 1000)
const prof = process.argv.includes("--prof")
const body = process.argv.includes("--ignored") ? (id: number) => JSON.stringify({ update_id: id }) : telegramBody
const child = spawn(process.execPath, [...serveNodeFlags, ...(process.env.FLAGS ? process.env.FLAGS.split(" ") : []), ...(prof ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof/out"] : []), process.env.BUNDLE ?? bundlePath, "serve"], {
  stdio: ["ignore", "pipe", "inherit"],
  env: { ...process.env, PORT: String(port), VERBATIM_DATA_DIR: dir, VERBATIM_SQLITE_SYNCHRONOUS: "NORMAL", TELEGRAM_WEBHOOK_SECRET: secret,
    VERBATIM_SESSION_IDLE_SECONDS: "3600", VERBATIM_ALLOWED_SENDERS: Array.from({ length: senders }, (_, i) => `telegram:${100_000_000 + i}`).join(","), ANTHROPIC_API_KEY: "" }
})
await waitForListening(child)
let id = 1
const fire = (amount: number) => autocannon({ url: `http://127.0.0.1:${port}/webhooks/telegram`, connections: 64, amount,
  requests: [{ method: "POST", headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": secret }, setupRequest: (r: any) => ({ ...r, body: body(id++) }) }] })
console.log("idle rss", peakRssMb(child.pid!).toFixed(0)); await fire(2000); console.log("warm rss", peakRssMb(child.pid!).toFixed(0))
const before = cpuMs(child.pid!)
const r = await fire(Number(process.env.N ?? 20000))
const after = cpuMs(child.pid!); console.log("peak rss", peakRssMb(child.pid!).toFixed(0))
console.log(`cpu ms/req ${((after - before) / Number(process.env.N ?? 20000)).toFixed(3)} req/s ${r.requests.average} non2xx ${r.non2xx} errors ${r.errors}`)
child.kill("SIGINT")
await new Promise((r) => child.on("exit", r))

/**
 * The pipeline end to end: `SENDERS` senders at once, each closing `SESSIONS` sessions of
 * `MESSAGES` messages one after another (waiting for each reply before the next), through the
 * bundled server as `npm start` runs it, the fake Messages API over the real SDK (answering at
 * once, or after `--model-delay` ms) and the fake Telegram Bot API. Reports each reply's latency
 * from its `/done` webhook's answer to the fake Telegram receiving the `sendMessage` (p50, p99),
 * sessions per second end to end, and replies lost (never sent) or doubled (sent twice). With
 * `--before BUNDLE[,BUNDLE…]`, earlier commits' bundles are measured too, in the same run; with
 * `--postgres URL`, each server runs on a fresh database of that server instead of SQLite.
 * Usage: npm run bench:pipeline [-- --senders 40 --sessions 25 --messages 10] [-- --model-delay 1000]
 *        [-- --before DIR/verbatim.mjs] [-- --postgres postgres://…] [-- --cpu-prof DIR] [-- --unpaced]
 * With `--cpu-prof DIR`, each server writes a V8 CPU profile into DIR when it stops (open it in
 * Chrome's DevTools, or sum its self times by function). With `--rounds N`, the servers are measured
 * N times each, alternating which goes first. Each row also gives the server's own CPU time per
 * session (user and system, from /proc), which the machine's other load disturbs far less than
 * latency. With `--unpaced`, the servers run with `VERBATIM_PACE_REPLIES=false`: replies are not
 * held to Telegram's published limits (30 a second, one a second in a chat after 3), which
 * otherwise bound this bench, so what remains is the service's own overhead.
 */
import { FakeAnthropic } from "@verbatim/testkit"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as PgClient from "@effect/sql-pg/PgClient"
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Redacted } from "effect"
import { bundle, bundlePath } from "@verbatim/server/scripts/bundle"
import { run, startFakes } from "./reliability/Fakes.js"
import * as S from "./reliability/Server.js"

const argument = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined)
const senders = Number(argument("--senders") ?? 40)
const sessions = Number(argument("--sessions") ?? 25)
const messages = Number(argument("--messages") ?? 10)
const modelDelay = Number(argument("--model-delay") ?? 0)
const before = argument("--before")
const postgres = argument("--postgres")
const cpuProfile = argument("--cpu-prof")
const rounds = Number(argument("--rounds") ?? 1)
const unpaced = process.argv.includes("--unpaced")

const plan = FakeAnthropic.FakeReply.toolUse({
  people: [],
  unattached: [{ sourceItemSeqs: Array.from({ length: messages }, (_, i) => i + 1), directives: [] }],
  unclear: [],
  botMessages: []
})

/** A process's CPU time so far, user and system, in milliseconds (Linux: /proc/PID/stat, in clock ticks of 10 ms). */
const cpuMillis = (pid: number | undefined) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ")
  return (Number(fields[11]) + Number(fields[12])) * 10
}

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!

/** Run one statement on the server's maintenance connection. */
const admin = (url: string, statement: string) =>
  Effect.runPromise(Effect.provide(
    Effect.flatMap(SqlClient, (sql) => sql.unsafe(statement)),
    PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })
  ))

/** A fresh database on the server at `url` for one measurement, and how to drop it. */
const freshDatabase = async (url: string) => {
  const name = `verbatim_pipeline_${Date.now().toString(36)}`
  await admin(url, `CREATE DATABASE ${name}`)
  const database = new URL(url)
  database.pathname = `/${name}`
  return { url: database.toString(), drop: () => admin(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}

const measure = async (name: string, bundleFile: string) => {
  const fakes = await startFakes()
  const dir = mkdtempSync(join(tmpdir(), "verbatim-pipeline-"))
  const database = postgres === undefined ? undefined : await freshDatabase(postgres)
  const users = Array.from({ length: senders }, (_, i) => 100_000_001 + i)
  const reply = modelDelay > 0 ? FakeAnthropic.FakeReply.after(modelDelay, plan) : plan
  await run(fakes.anthropic.script(...Array.from({ length: senders * sessions }, () => reply)))
  const server = await S.start({
    ...fakes.env,
    VERBATIM_DATA_DIR: dir,
    ...(database === undefined ? {} : { VERBATIM_DATABASE_URL: database.url }),
    VERBATIM_ALLOWED_SENDERS: users.map((u) => `telegram:${u}`).join(","),
    VERBATIM_SESSION_IDLE_SECONDS: "3600",
    ...(unpaced ? { VERBATIM_PACE_REPLIES: "false" } : {})
  }, bundleFile, cpuProfile === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${cpuProfile}`])
  try {
    // Replies seen so far per chat, as the fake Telegram received them, read by one poller every
    // 5 ms for every sender (the bot's name is asked for at start-up: only sends count).
    const counts = new Map<string, number>()
    let read = 0
    const poll = async () => {
      const calls = await run(fakes.telegram.calls)
      for (const call of calls.slice(read)) {
        if (call.method !== "sendMessage") continue
        const chat = String((call.body as { chat_id: unknown }).chat_id)
        counts.set(chat, (counts.get(chat) ?? 0) + 1)
      }
      read = calls.length
    }
    let polling = true
    const poller = (async () => {
      while (polling) {
        await poll()
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    })()
    const started = performance.now()
    const cpuBefore = cpuMillis(server.child.pid)
    const latencies = (await Promise.all(users.map(async (user, u) => {
      const own: Array<number> = []
      let id = u * sessions * (messages + 1)
      for (let session = 1; session <= sessions; session++) {
        for (let m = 0; m < messages; m++) await S.post(server.url, ++id, user, `Session ${session}, message ${m + 1} from ${user}.`)
        await S.post(server.url, ++id, user, "/done")
        const answered = performance.now()
        while ((counts.get(String(user)) ?? 0) < session) await new Promise((resolve) => setTimeout(resolve, 2))
        own.push(performance.now() - answered)
      }
      return own
    }))).flat()
    const seconds = (performance.now() - started) / 1000
    const cpuPerSession = (cpuMillis(server.child.pid) - cpuBefore) / (senders * sessions)
    // Anything sent twice shows once the outbox has settled.
    await new Promise((resolve) => setTimeout(resolve, 3000))
    polling = false
    await poller
    await poll()
    const perChat = users.map((user) => counts.get(String(user)) ?? 0)
    const lost = perChat.reduce((a, n) => a + Math.max(0, sessions - n), 0)
    const doubled = perChat.reduce((a, n) => a + Math.max(0, n - sessions), 0)
    const sorted = [...latencies].sort((a, b) => a - b)
    return `| ${name} | ${postgres === undefined ? "SQLite" : "PostgreSQL"} | ${modelDelay} | ${senders * sessions} | ${
      percentile(sorted, 50).toFixed(0)
    } | ${percentile(sorted, 99).toFixed(0)} | ${(senders * sessions / seconds).toFixed(1)} | ${cpuPerSession.toFixed(2)} | ${lost} | ${doubled} |`
  } finally {
    await S.stop(server)
    await fakes.close()
    await database?.drop()
    rmSync(dir, { recursive: true, force: true })
  }
}

await bundle()
const servers: Array<readonly [string, string]> = [
  ["this checkout", bundlePath],
  ...(before === undefined ? [] : before.split(",").map((file) => [`before (${file})`, file] as const))
]
const rows: Array<string> = []
for (let round = 0; round < rounds; round++) {
  for (const [name, file] of round % 2 === 0 ? servers : [...servers].reverse()) rows.push(await measure(name, file))
}
console.log(
  [
    `${senders} senders at once, ${sessions} sessions each of ${messages} messages${unpaced ? ", replies unpaced" : ""}`,
    "",
    "| server | store | model delay ms | sessions | /done to reply p50 ms | p99 ms | sessions/s | server CPU ms/session | lost | doubled |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows
  ].join("\n")
)

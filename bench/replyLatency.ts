/**
 * Reply latency: how long after a sender's `/done` is answered the bot's reply reaches the
 * provider, with a model that answers at once (the fake Messages API over the real SDK) and the
 * fake Telegram Bot API, through the bundled server as `npm start` runs it. `SENDERS` senders at
 * once each send a message and `/done`; each reply's latency is from the `/done` webhook's answer
 * to the fake Telegram receiving the `sendMessage` for that chat. With `--before BUNDLE`, an
 * earlier commit's bundle is measured too, in the same run.
 * Usage: npm run bench:reply-latency [-- --senders 40] [-- --before DIR/verbatim.mjs]
 */
import { FakeAnthropic } from "@verbatim/testkit"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { bundle, bundlePath } from "@verbatim/server/scripts/bundle"
import { run, startFakes } from "./reliability/Fakes.js"
import * as S from "./reliability/Server.js"

const argument = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined)
const senders = Number(argument("--senders") ?? 40)
const before = argument("--before")

const ownNote = FakeAnthropic.FakeReply.toolUse({ people: [], unattached: [{ sourceItemSeqs: [1], directives: [] }], unclear: [], botMessages: [] })

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!

const measure = async (name: string, bundleFile: string) => {
  const fakes = await startFakes()
  const dir = mkdtempSync(join(tmpdir(), "verbatim-reply-latency-"))
  const users = Array.from({ length: senders }, (_, i) => 100_000_001 + i)
  await run(fakes.anthropic.script(...users.map(() => ownNote)))
  const server = await S.start({
    ...fakes.env,
    VERBATIM_DATA_DIR: dir,
    VERBATIM_ALLOWED_SENDERS: users.map((u) => `telegram:${u}`).join(","),
    VERBATIM_SESSION_IDLE_SECONDS: "3600"
  }, bundleFile)
  try {
    // The bot's name is asked for at start-up: only sends count.
    const sendsTo = async () => {
      const calls = await run(fakes.telegram.calls)
      return new Set(calls.filter((c) => c.method === "sendMessage").map((c) => String((c.body as { chat_id: unknown }).chat_id)))
    }
    const latencies = await Promise.all(users.map(async (user, i) => {
      await S.post(server.url, 2 * i + 1, user, "Dana starts at the new job on Monday.")
      await S.post(server.url, 2 * i + 2, user, "/done")
      const answered = performance.now()
      while (!(await sendsTo()).has(String(user))) await new Promise((resolve) => setTimeout(resolve, 5))
      return performance.now() - answered
    }))
    const sorted = [...latencies].sort((a, b) => a - b)
    return `| ${name} | ${senders} | ${percentile(sorted, 50).toFixed(0)} | ${percentile(sorted, 99).toFixed(0)} |`
  } finally {
    await S.stop(server)
    await fakes.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

await bundle()
const rows = [await measure("this checkout", bundlePath), ...(before === undefined ? [] : [await measure(`before (${before})`, before)])]
console.log(["| server | senders | p50 ms | p99 ms |", "|---|---|---|---|", ...rows].join("\n"))

/** The reliability checks: each starts its own server(s) on a temp store and throws on any loss or duplicate. */
import fc from "fast-check"
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { bundlePath } from "@verbatim/server/scripts/bundle"
import * as S from "./Server.js"

export interface Options {
  /** CI's short mode: fewer requests and runs, same assertions. */
  readonly short: boolean
}

/** A progress line on stderr, so a slow check shows where it is. */
const progress = (line: string) => process.stderr.write(`  … ${line}\n`)

const tempDir = () => mkdtempSync(join(tmpdir(), "verbatim-reliability-"))

const expectEqual = (label: string, actual: unknown, expected: unknown) => {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`${label}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`)
  }
}

const withServer = async <A>(env: Readonly<Record<string, string>>, body: (url: string, dir: string) => Promise<A>) => {
  const dir = tempDir()
  const running = await S.start({ VERBATIM_DATA_DIR: dir, ...env })
  try {
    return await body(running.url, dir)
  } finally {
    await S.stop(running)
    rmSync(dir, { recursive: true, force: true })
  }
}

const sender = 100_000_001
/** Eight senders, so concurrent captures land in different sessions and share commits. */
const senders = Array.from({ length: 8 }, (_, i) => sender + i)
const allowed = {
  VERBATIM_ALLOWED_SENDERS: [...senders.map((s) => `telegram:${s}`), "whatsapp:15550001111"].join(","),
  VERBATIM_SESSION_IDLE_SECONDS: "3600"
}
const whatsAppBody = readFileSync("packages/domain/test/fixtures/webhooks/whatsapp/01_text_meta_docs.json")

/** The same Telegram update and the same WhatsApp body, each posted 50 times at once: one message each. */
export const redeliveryStorm = (_: Options) =>
  withServer(allowed, async (url) => {
    const update = S.telegramUpdate(7_001, sender, "Bob's birthday is on the 4th of May.")
    const statuses = await Promise.all([
      ...Array.from({ length: 50 }, () => S.postTelegram(url, update).then((r) => r.status)),
      ...Array.from({ length: 50 }, () => S.postWhatsApp(url, whatsAppBody).then((r) => r.status))
    ])
    expectEqual("statuses", [...new Set(statuses)], [200])
    const counts = S.capturedCounts(await S.allEvents(url))
    expectEqual("captured", Object.fromEntries(counts), { [`${sender}:7001`]: 1, "wamid.FAKE-TEXT-0001": 1 })
    return "100 posts, 2 messages recorded once each"
  })

/** `kill -9` while 64 connections post; after a restart every acknowledged update is in the log exactly once. */
export const crash = (options: Options) => {
  const dir = tempDir()
  const env = { ...allowed, VERBATIM_DATA_DIR: dir, VERBATIM_SQLITE_SYNCHRONOUS: "FULL" }
  return (async () => {
    const first = await S.start(env)
    progress("started; posting from 64 connections")
    const acknowledged = new Set<string>()
    let next = 1
    let stopped = false
    const poster = async () => {
      while (!stopped) {
        const id = next++
        const from = senders[id % senders.length]!
        try {
          const response = await S.postTelegram(first.url, S.telegramUpdate(id, from, `message ${id}`))
          if (response.status === 200) acknowledged.add(`${from}:${id}`)
        } catch {
          // the server died mid-request: not acknowledged, so it may or may not be recorded
        }
      }
    }
    const posters = Array.from({ length: 64 }, poster)
    await new Promise((resolve) => setTimeout(resolve, options.short ? 1_500 : 5_000))
    first.child.kill("SIGKILL")
    stopped = true
    progress("kill -9 sent; waiting for the posters")
    await Promise.all(posters)
    await S.whenExited(first.child)
    progress(`killed after ${acknowledged.size} acknowledged; restarting`)
    const second = await S.start(env)
    try {
      const counts = S.capturedCounts(await S.allEvents(second.url))
      const missing = [...acknowledged].filter((id) => !counts.has(id))
      const doubled = [...counts].filter(([, n]) => n !== 1).map(([id]) => id)
      expectEqual("acknowledged but missing", missing, [])
      expectEqual("recorded more than once", doubled, [])
      await S.stop(second)
      progress("log checked; rebuild --verify")
      const verify = spawnSync(process.execPath, [bundlePath, "rebuild", "--verify"], {
        env: { PATH: process.env["PATH"] ?? "", VERBATIM_DATA_DIR: dir },
        encoding: "utf8"
      })
      if (verify.status !== 0) throw new Error(`rebuild --verify failed (${verify.status}): ${verify.stdout}${verify.stderr}`)
      return `${acknowledged.size} acknowledged before kill -9, all recorded once; rebuild --verify identical`
    } finally {
      await S.stop(second)
      rmSync(dir, { recursive: true, force: true })
    }
  })()
}

const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom("update_id", "message", "text", "from", "chat", "entry", "changes", "messages", "id"), tie("value"))
  )
})).value

/** Bodies that are not valid deliveries: wrong types, missing fields, huge strings, bad UTF-8, deep nesting. */
const badBody = fc.oneof(
  jsonish.map((v) => Buffer.from(JSON.stringify(v) ?? "null")),
  fc.uint8Array({ maxLength: 512 }).map((bytes) => Buffer.from(bytes)),
  fc.string({ maxLength: 64 }).map((s) => Buffer.from(`{"update_id": 1, "message": ${s}`)),
  fc.integer({ min: 1, max: 20_000 }).map((depth) => Buffer.from("[".repeat(depth) + "]".repeat(depth))),
  fc.integer({ min: 1, max: 3 }).map((mb) => Buffer.alloc(mb * 1024 * 1024, 0x61))
)

/** Generated bodies and headers for both webhooks: never a 5xx, never a crash, nothing appended. */
export const fuzz = (options: Options) =>
  withServer(allowed, async (url) => {
    const before = (await S.allEvents(url)).length
    let posts = 0
    await fc.assert(
      fc.asyncProperty(badBody, fc.boolean(), fc.boolean(), async (body, whatsApp, rightSecret) => {
        posts += 1
        const response = whatsApp
          ? await S.postWhatsApp(url, body, rightSecret ? S.whatsAppSignature(body) : "sha256=00")
          : await S.postTelegram(url, body, rightSecret ? S.telegramSecret : "wrong")
        await response.arrayBuffer()
        return response.status < 500
      }),
      { numRuns: options.short ? 150 : 1_000 }
    )
    const health = await fetch(`${url}/healthz`)
    expectEqual("healthz after fuzz", health.status, 200)
    expectEqual("events appended by invalid input", (await S.allEvents(url)).length - before, 0)
    return `${posts} generated deliveries, no 5xx, nothing appended`
  })

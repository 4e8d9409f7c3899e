/**
 * Messages of 1 MiB, each planned through the real SDK against the fake Messages API while 16
 * connections post webhooks: every note holds its message whole, every webhook is recorded once,
 * webhook latency while a big message is captured and planned is compared with latency without
 * one in rounds that alternate the two (so a drift in the machine's load moves both), and the
 * server's event loop is never held long (its own `monitorEventLoopDelay`, read from `/metrics`).
 */
import { FakeAnthropic } from "@verbatim/testkit"
import { mixedText } from "@verbatim/testkit/MixedText"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Options } from "./Checks.js"
import { run, startFakes } from "./Fakes.js"
import * as S from "./Server.js"

const senders = Array.from({ length: 16 }, (_, i) => 100_000_001 + i)
/** Each round's big message is its own user's, so its session holds it alone. */
const bigSenders = Array.from({ length: 5 }, (_, i) => `telegram:${200_000_001 + i}`)
const env = {
  VERBATIM_ALLOWED_SENDERS: [...senders.map((s) => `telegram:${s}`), ...bigSenders].join(","),
  VERBATIM_SESSION_IDLE_SECONDS: "3600"
}

const percentile = (xs: ReadonlyArray<number>, p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN
const median = (xs: ReadonlyArray<number>) => percentile(xs, 0.5)

/**
 * 16 connections posting distinct updates at a fixed rate (`everyMs` apart on each, 400 a second in
 * all: a quarter of what the server takes flat out on this machine) until `done()`. A post's time
 * counts from when it was due, not from when it was sent, so a stall delays every post due during
 * it (no coordinated omission).
 */
const postWhile = async (url: string, ids: { next: number }, done: () => boolean, everyMs = 40) => {
  const millis: Array<number> = []
  const refused: Array<number> = []
  await Promise.all(senders.map(async (sender, index) => {
    let due = performance.now() + (everyMs * index) / senders.length
    while (!done()) {
      const wait = due - performance.now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      const id = ids.next++
      const response = await S.postTelegram(url, S.telegramUpdate(id, sender, `short message ${id}`))
      millis.push(performance.now() - due)
      if (response.status !== 200) refused.push(response.status)
      due += everyMs
    }
  }))
  return { millis, refused }
}

/** The body of the one note of the user's one person, once it is filed. */
const noteBody = async (url: string, user: string): Promise<string | null> => {
  const people = (await S.api(url, `/api/people?user=${user}`)).body as { items: ReadonlyArray<{ id: string }> }
  if (people.items.length === 0) return null
  const notes = (await S.api(url, `/api/people/${people.items[0]!.id}/notes`)).body as { items: ReadonlyArray<{ body: string }> }
  return notes.items[0]?.body ?? null
}

/** Captures `text` as `user`'s whole session and waits (polling lightly) until it is filed. */
const captureAndFile = async (url: string, user: string, text: string) => {
  const started = Date.now()
  const captured = await fetch(`${url}/api/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${S.apiToken}`, "content-type": "application/json" },
    body: JSON.stringify({ user, messages: [{ id: "big", text }], close: true })
  })
  if (captured.status !== 200) throw new Error(`the 1 MiB message was answered ${captured.status}: ${await captured.text()}`)
  while (Date.now() - started < 120_000) {
    const people = (await S.api(url, `/api/people?user=${user}`)).body as { items: ReadonlyArray<unknown> }
    if (people.items.length > 0) return Date.now() - started
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error("a 1 MiB message was not filed within 120 s")
}

export const bigMessage = (options: Options) =>
  (async () => {
    const fakes = await startFakes()
    const dir = mkdtempSync(join(tmpdir(), "verbatim-reliability-"))
    const server = await S.start({ ...env, ...fakes.env, VERBATIM_DATA_DIR: dir })
    try {
      const rounds = options.short ? 3 : 5
      const quietMs = options.short ? 1_000 : 2_000
      const ids = { next: 1 }
      const quiet: Array<Array<number>> = []
      const loud: Array<Array<number>> = []
      const filedMs: Array<number> = []
      const refused: Array<number> = []
      const text = mixedText(1024 * 1024)
      for (const user of bigSenders.slice(0, rounds)) {
        const quietEnd = Date.now() + quietMs
        const before = await postWhile(server.url, ids, () => Date.now() > quietEnd)
        await run(fakes.anthropic.script(FakeAnthropic.FakeReply.toolUse({
          people: [{ contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [] }] }],
          unattached: [],
          unclear: [],
          botMessages: []
        })))
        let filed = false
        const [during] = await Promise.all([
          postWhile(server.url, ids, () => filed),
          captureAndFile(server.url, user, text).then((ms) => {
            filedMs.push(ms)
          }).finally(() => {
            filed = true
          })
        ])
        quiet.push(before.millis)
        loud.push(during.millis)
        refused.push(...before.refused, ...during.refused)
      }
      for (const user of bigSenders.slice(0, rounds)) {
        if ((await noteBody(server.url, user)) !== text) throw new Error(`${user}'s note is not the message whole`)
      }
      if (refused.length > 0) throw new Error(`webhooks refused: ${refused.slice(0, 5).join(", ")}`)
      const posted = ids.next - 1
      const counts = S.capturedCounts(await S.allEvents(server.url))
      const doubled = [...counts].filter(([, n]) => n !== 1)
      if (counts.size !== posted + rounds || doubled.length > 0) {
        throw new Error(`recorded ${counts.size} of ${posted + rounds}, ${doubled.length} more than once`)
      }
      const lagP99 = await S.metric(server.url, "nodejs_eventloop_lag_p99_seconds") * 1000
      const lagMax = await S.metric(server.url, "nodejs_eventloop_lag_max_seconds") * 1000
      const ms = (x: number) => x.toFixed(1)
      const p99s = (windows: ReadonlyArray<ReadonlyArray<number>>) => windows.map((w) => percentile(w, 0.99))
      const summary = `${rounds} messages filed whole in ${filedMs.join(", ")} ms; ` +
        `webhook p99 without a big message ${ms(percentile(quiet.flat(), 0.99))} ms (rounds ${p99s(quiet).map(ms).join(", ")}), ` +
        `while one is captured and planned ${ms(percentile(loud.flat(), 0.99))} ms (rounds ${p99s(loud).map(ms).join(", ")}); ` +
        `median ${ms(median(quiet.flat()))} and ${ms(median(loud.flat()))} ms; ${quiet.flat().length} and ${loud.flat().length} posts, each recorded once; ` +
        `event-loop delay p99 ${ms(lagP99)} ms, max ${ms(lagMax)} ms`
      // The targets (webhook p99 unchanged, event-loop delay p99 at most 50 ms) are measured in
      // BENCHMARKS.md; on a shared CI machine the check fails only on a stall no noise explains
      // (the quadratic cut held the loop for seconds).
      if (lagP99 > 200) throw new Error(`event-loop delay p99 over 200 ms: ${summary}`)
      return summary
    } finally {
      await S.stop(server)
      await fakes.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })()

/**
 * One message of 1 MiB, planned through the real SDK against the fake Messages API while 16
 * connections post webhooks: the note holds the message whole, every webhook is recorded once,
 * webhook latency stays where it was without the big message, and the server's event loop is
 * never held long (its own `monitorEventLoopDelay`, read from `/metrics`).
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
const env = {
  VERBATIM_ALLOWED_SENDERS: senders.map((s) => `telegram:${s}`).join(","),
  VERBATIM_SESSION_IDLE_SECONDS: "3600"
}

const percentile = (xs: ReadonlyArray<number>, p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!

/** 16 connections posting distinct updates until `done()`; each post's milliseconds and status. */
const postWhile = async (url: string, firstId: number, done: () => boolean) => {
  const millis: Array<number> = []
  const refused: Array<number> = []
  let next = firstId
  await Promise.all(senders.map(async (sender) => {
    while (!done()) {
      const id = next++
      const started = performance.now()
      const response = await S.postTelegram(url, S.telegramUpdate(id, sender, `short message ${id}`))
      millis.push(performance.now() - started)
      if (response.status !== 200) refused.push(response.status)
    }
  }))
  return { millis, refused, posted: next - firstId }
}

/** Whether the operator's web session has a person yet: a small read, so watching costs the server little. */
const filedYet = async (url: string): Promise<boolean> =>
  ((await S.api(url, "/api/people?user=web:operator")).body as { items: ReadonlyArray<unknown> }).items.length > 0

/** The body of the one note of the operator's one person. */
const noteBody = async (url: string): Promise<string | null> => {
  const people = (await S.api(url, "/api/people?user=web:operator")).body as { items: ReadonlyArray<{ id: string }> }
  const notes = (await S.api(url, `/api/people/${people.items[0]!.id}/notes`)).body as { items: ReadonlyArray<{ body: string }> }
  return notes.items[0]?.body ?? null
}

export const bigMessage = (options: Options) =>
  (async () => {
    const fakes = await startFakes()
    const dir = mkdtempSync(join(tmpdir(), "verbatim-reliability-"))
    const server = await S.start({ ...env, ...fakes.env, VERBATIM_DATA_DIR: dir })
    try {
      const baselineMs = options.short ? 2_000 : 5_000
      const baselineEnd = Date.now() + baselineMs
      const baseline = await postWhile(server.url, 1, () => Date.now() > baselineEnd)
      await run(fakes.anthropic.script(FakeAnthropic.FakeReply.toolUse({
        people: [{ contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [] }] }],
        unattached: [],
        unclear: [],
        botMessages: []
      })))
      const text = mixedText(1024 * 1024)
      const started = Date.now()
      let filed = false
      const captured = await fetch(`${server.url}/api/messages`, {
        method: "POST",
        headers: { authorization: `Bearer ${S.apiToken}`, "content-type": "application/json" },
        body: JSON.stringify({ messages: [{ id: "big", text }], close: true })
      })
      if (captured.status !== 200) throw new Error(`the 1 MiB message was answered ${captured.status}: ${await captured.text()}`)
      const watcher = (async () => {
        while (!filed && Date.now() - started < 120_000) {
          filed = await filedYet(server.url)
          if (!filed) await new Promise((resolve) => setTimeout(resolve, 50))
        }
      })()
      const during = await postWhile(server.url, 1_000_000, () => filed || Date.now() - started > 120_000)
      await watcher
      const plannedMs = Date.now() - started
      if (!filed) throw new Error("the 1 MiB message was not filed within 120 s")
      if ((await noteBody(server.url)) !== text) throw new Error("the note's body is not the message")
      const refused = [...baseline.refused, ...during.refused]
      if (refused.length > 0) throw new Error(`webhooks refused: ${refused.slice(0, 5).join(", ")}`)
      const counts = S.capturedCounts(await S.allEvents(server.url))
      const doubled = [...counts].filter(([, n]) => n !== 1)
      if (counts.size !== baseline.posted + during.posted + 1 || doubled.length > 0) {
        throw new Error(`recorded ${counts.size} of ${baseline.posted + during.posted + 1}, ${doubled.length} more than once`)
      }
      const lagP99 = await S.metric(server.url, "nodejs_eventloop_lag_p99_seconds") * 1000
      const lagMax = await S.metric(server.url, "nodejs_eventloop_lag_max_seconds") * 1000
      const p99 = (xs: ReadonlyArray<number>) => percentile(xs, 0.99).toFixed(1)
      const summary = `filed whole in ${plannedMs} ms; webhook p99 ${p99(baseline.millis)} ms before, ${p99(during.millis)} ms while planning ` +
        `(${baseline.posted} and ${during.posted} posts, each recorded once); event-loop delay p99 ${lagP99.toFixed(1)} ms, max ${lagMax.toFixed(1)} ms`
      // The target (p99 at most 50 ms) is measured in BENCHMARKS.md; on a shared CI machine the check
      // fails only on a stall no noise explains (the quadratic cut held the loop for seconds).
      if (lagP99 > 200) throw new Error(`event-loop delay p99 over 200 ms: ${summary}`)
      return summary
    } finally {
      await S.stop(server)
      await fakes.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })()

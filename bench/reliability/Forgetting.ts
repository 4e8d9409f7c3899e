/**
 * Forgetting on two instances on one PostgreSQL, racing planning (`ForgetRace.ts`). Once every
 * session is planned: no forgotten marker in any note, search hit or accounting on either
 * instance, every other message filed exactly once, the forgotten ones `Erased`. Their webhook
 * updates delivered again to both instances bring nothing back. With the servers stopped,
 * `verbatim rebuild --verify` holds and a `pg_dump` holds none of the forgotten markers.
 */
import { FakeAnthropic } from "@verbatim/testkit"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Options } from "./Checks.js"
import { freshDatabase, pgDump, verifyRebuild } from "./Database.js"
import { accounting, audit, auditDump, expectNone, noProblems, type Problems, type Sent } from "./ForgetAudit.js"
import { captureUser, markerOf, plan, type Race, watch } from "./ForgetRace.js"
import { run, startFakes } from "./Fakes.js"
import * as S from "./Server.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The sent messages by the session the log put each in; one never captured is lost. */
const bySession = async (url: string, sent: ReadonlyArray<Sent>, problems: Problems) => {
  const sessionOf = new Map<string, string>()
  for (const { event, streamId } of await S.allEvents(url)) {
    if (event._tag === "MessageReceived") sessionOf.set((event["message"] as { id: string }).id, streamId.replace(/^session-/, ""))
  }
  const sessions = new Map<string, Array<Sent>>()
  for (const m of sent) {
    const sessionId = sessionOf.get(m.messageId)
    if (sessionId === undefined) problems.lost.push(`${m.marker} (never captured)`)
    else sessions.set(sessionId, [...(sessions.get(sessionId) ?? []), m])
  }
  return sessions
}

/** Deliver each forgotten message's update again to both instances; what the log gained. */
const redeliver = async (race: Race, forgotten: ReadonlySet<string>, problems: Problems) => {
  const before = await S.allEvents(race.servers[0]!.url)
  const last = before.at(-1)?.position ?? 0
  const again = race.sent.filter((m) => forgotten.has(m.messageId))
  for (const m of again) {
    for (const server of race.servers) {
      const response = await S.postTelegram(server.url, S.telegramUpdate(m.updateId, m.user, m.text))
      if (response.status !== 200) throw new Error(`redelivering ${m.marker} answered ${response.status}: ${await response.text()}`)
    }
  }
  await sleep(2_000)
  const gained = (await S.allEvents(race.servers[0]!.url)).filter((e) => e.position > last)
  for (const m of again) {
    if (gained.some((e) => JSON.stringify(e).includes(m.marker))) problems.leaked.push(`${m.marker} (an event appended on its redelivery)`)
  }
  const captured = gained.filter((e) => e.event._tag === "MessageReceived" || e.event._tag === "MessageEdited")
  for (const e of captured) problems.leaked.push(`${JSON.stringify(e).slice(0, 200)} (captured again on a redelivery)`)
  return { updates: again.length * race.servers.length, gained: gained.length }
}

/**
 * A message forgotten while its session's plan was at the model, or before its session closed, is
 * in no request made after: the last one for its session (found by its third message) lacks it.
 */
const plannedWithout = (race: Race, requests: ReadonlyArray<string>, problems: Problems) => {
  for (const forgot of race.forgot.filter((f) => f.kind === "message in flight" || f.kind === "message of an open session")) {
    for (const m of race.sent.filter((s) => forgot.erased.includes(s.messageId))) {
      const last = requests.filter((r) => r.includes(`${m.marker.slice(0, 7)}3x`)).at(-1)
      if (last === undefined || last.includes(m.marker)) problems.leaked.push(`${m.marker} (the last model request for its session)`)
    }
  }
}

export const forgettingOnTwoInstances = (options: Options, postgresUrl: string) =>
  (async () => {
    const database = await freshDatabase(postgresUrl, "forget_")
    const users = Array.from({ length: options.short ? 8 : 16 }, (_, i) => 100_000_200 + i)
    const sessions = options.short ? 2 : 3
    const delayMs = options.short ? 1_500 : 2_000
    const fakes = [await startFakes(), await startFakes()]
    const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), "verbatim-reliability-")))
    const servers: Array<S.Running> = []
    const timings: Array<string> = []
    let mark = Date.now()
    const lap = (what: string) => {
      timings.push(`${what} ${((Date.now() - mark) / 1000).toFixed(1)} s`)
      mark = Date.now()
    }
    try {
      // Each instance's model may plan every session, each at most twice (once refused as stale).
      for (const f of fakes) await run(f.anthropic.script(...users.flatMap(() => Array.from({ length: sessions * 2 }, () => FakeAnthropic.FakeReply.after(delayMs, plan)))))
      const env = {
        VERBATIM_DATABASE_URL: database.url,
        VERBATIM_ALLOWED_SENDERS: users.map((u) => `telegram:${u}`).join(","),
        VERBATIM_SESSION_IDLE_SECONDS: "3600"
      }
      servers.push(...(await Promise.all(dirs.map((dir, n) => S.start({ ...fakes[n]!.env, ...env, VERBATIM_DATA_DIR: dir })))))
      lap("start")
      const race: Race = { servers, fakes, delayMs, sent: [], forgot: [], seen: [] }
      const problems = noProblems()
      let settled = false
      const watching = watch(race, users.length, () => settled)
      await Promise.all(users.map((user, i) => captureUser(race, i, user, sessions, 400)))
      const books = await bySession(servers[0]!.url, race.sent, problems)
      await S.until("every session planned", async () =>
        (await Promise.all([...books.keys()].map((id) => accounting(servers[0]!.url, id)))).every((a) => a.status === "planned"), 90_000, 300)
      settled = true
      await watching
      lap("capture and race")
      await sleep(1_000)
      const forgotten = new Set(race.forgot.flatMap((f) => f.erased))
      for (const [n, server] of servers.entries()) await audit(`instance ${"AB"[n]}`, server.url, books, forgotten, problems)
      const requests = race.seen.map((r) => r.body)
      plannedWithout(race, requests, problems)
      expectNone("after the race", problems)
      lap("audit")
      const redelivered = await redeliver(race, forgotten, problems)
      for (const [n, server] of servers.entries()) await audit(`instance ${"AB"[n]} after redelivery`, server.url, books, forgotten, problems)
      expectNone("after redelivering the forgotten messages", problems)
      lap("redelivery")
      for (const server of servers) await S.stop(server)
      const verified = verifyRebuild(database.url)
      lap("rebuild --verify")
      auditDump(pgDump(database.url), race.sent, forgotten, problems)
      expectNone("in a pg_dump", problems)
      lap("pg_dump")
      const replanned = users.map((_, i) => i).filter((i) => i % 4 === 0 && requests.filter((r) => r.includes(markerOf(i, 0, 2))).length >= 2).length
      const kinds = ["message in flight", "message of an open session", "note", "person"].map((k) => `${race.forgot.filter((f) => f.kind === k).length} ${k}`)
      return `${race.sent.length} messages in ${books.size} sessions of ${users.length} users over two instances, ${requests.length} model calls; ` +
        `${race.forgot.length} forgettings (${kinds.join(", ")}), ${race.forgot.filter((f) => f.inFlight > 0).length} with plans in flight at the other instance, ` +
        `${replanned} sessions planned again without their forgotten message (each session's last model request without it); ${forgotten.size} messages Erased, ${race.sent.length - forgotten.size} filed once each; ` +
        `no forgotten marker in notes, search or accounting of either instance, nor in a pg_dump; ${redelivered.updates} redeliveries appended ${redelivered.gained} events; ` +
        `${verified}; ${timings.join(", ")}`
    } finally {
      for (const server of servers) await S.stop(server)
      for (const f of fakes) await f.close()
      await database.drop()
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
    }
  })()

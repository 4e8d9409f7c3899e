/** Outage checks: the model down for a while, the provider down for a while; nothing lost or doubled. */
import { FakeAnthropic } from "@verbatim/testkit"
import { rmSync } from "node:fs"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Options } from "./Checks.js"
import { run, startFakes } from "./Fakes.js"
import * as S from "./Server.js"

const users = [100_000_001, 100_000_002, 100_000_003]
const env = {
  VERBATIM_ALLOWED_SENDERS: users.map((u) => `telegram:${u}`).join(","),
  VERBATIM_SESSION_IDLE_SECONDS: "3600"
}

/** A plan that files seqs 1–50 as the sender's own note: it fits any session the checks make. */
const ownNote = FakeAnthropic.FakeReply.toolUse({
  people: [],
  unattached: [{ sourceItemSeqs: Array.from({ length: 50 }, (_, i) => i + 1), directives: [] }],
  unclear: [],
  botMessages: []
})

interface Accounting {
  readonly status: string
  readonly messages: ReadonlyArray<{ readonly seq: number; readonly dispositions: ReadonlyArray<{ readonly _tag: string; readonly kind?: string }> }>
}

const accounting = async (url: string, sessionId: string) =>
  (await S.api(url, `/api/sessions/${encodeURIComponent(sessionId)}/accounting`)).body as Accounting

/** Where each message is: its single place, or a list when it is in more than one (a defect). */
const places = (view: Accounting) =>
  view.messages.map((m) => {
    const primary = m.dispositions.filter((d) => d._tag !== "Instruction" || d.kind === "message")
    return primary.length === 1 ? primary[0]!._tag : `${primary.length} places`
  })

const sessionsOf = async (url: string) =>
  (await S.allEvents(url)).filter((e) => e.event._tag === "SessionOpened").map((e) => e.event["sessionId"] as string)

/**
 * The model fails every call for a while: each closed session is parked whole (one place per
 * message throughout); once it answers again the parked sessions are planned, none twice.
 */
export const modelOutage = (_: Options) =>
  (async () => {
    const fakes = await startFakes()
    const dir = mkdtempSync(join(tmpdir(), "verbatim-reliability-"))
    const server = await S.start({ ...env, ...fakes.env, VERBATIM_DATA_DIR: dir })
    try {
      await run(fakes.anthropic.script(...Array.from({ length: 6 }, () => FakeAnthropic.FakeReply.overloaded())))
      let id = 1
      for (const user of users) {
        for (const text of ["Dana starts at the new job on Monday.", "She wants to learn Go.", "Send her the book list."]) {
          await S.post(server.url, id++, user, text)
        }
        await S.post(server.url, id++, user, "/done")
      }
      const parked = await sessionsOf(server.url)
      await S.until("every session parked", async () => {
        const views = await Promise.all(parked.map((s) => accounting(server.url, s)))
        return views.every((v) => v.status === "failed")
      })
      for (const session of parked) {
        const where = places(await accounting(server.url, session))
        if (where.join() !== "InQuestion,InQuestion,InQuestion") throw new Error(`${session} during the outage: ${where.join()}`)
      }
      await run(fakes.anthropic.script(...Array.from({ length: 12 }, () => ownNote)))
      for (const user of users) {
        await S.post(server.url, id++, user, "One more thing: her birthday is in June.")
        await S.post(server.url, id++, user, "/done")
      }
      const all = await sessionsOf(server.url)
      await S.until("every session planned", async () => {
        const views = await Promise.all(all.map((s) => accounting(server.url, s)))
        return views.every((v) => v.status === "planned")
      })
      for (const session of all) {
        const where = places(await accounting(server.url, session))
        if (!where.every((p) => p === "InNote")) throw new Error(`${session} after recovery: ${where.join()}`)
      }
      const applied = (await S.allEvents(server.url)).filter((e) => e.event._tag === "PlanApplied")
      const perSession = new Map<string, number>()
      for (const e of applied) perSession.set(e.streamId, (perSession.get(e.streamId) ?? 0) + 1)
      const twice = [...perSession].filter(([, n]) => n !== 1)
      if (twice.length > 0 || perSession.size !== all.length) {
        throw new Error(`plans applied per session: ${JSON.stringify([...perSession])}`)
      }
      return `${parked.length} sessions parked during the outage, ${all.length} planned once each after it`
    } finally {
      await S.stop(server)
      await fakes.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })()

/** Sends that fail during the provider outage. */
const outageSends = 9

/** Reply sending fails for a while: every queued reply is sent exactly once after recovery. */
export const providerOutage = (_: Options) =>
  (async () => {
    const fakes = await startFakes()
    const dir = mkdtempSync(join(tmpdir(), "verbatim-reliability-"))
    await run(fakes.anthropic.script(...Array.from({ length: 6 }, () => ownNote)))
    const server = await S.start({ ...env, ...fakes.env, VERBATIM_DATA_DIR: dir })
    // The outage begins once the server is up (it asks Telegram its bot's name at start-up): three
    // failed sends a reply, which the outbox spaces 5, 10 and 20 s apart.
    await run(fakes.telegram.failNext(outageSends, "server"))
    try {
      let id = 1
      for (const user of users) {
        await S.post(server.url, id++, user, "Eli moved to Porto.")
        await S.post(server.url, id++, user, "/done")
      }
      await S.until("every reply sent", async () => {
        const events = await S.allEvents(server.url)
        const queued = events.filter((e) => e.event._tag === "ReplyQueued").length
        const sent = events.filter((e) => e.event._tag === "ReplySent").length
        return queued === users.length && sent === queued
      })
      const calls = (await run(fakes.telegram.calls)).filter((c) => c.method === "sendMessage")
      const delivered = calls.slice(outageSends).map((c) => (c.body as { chat_id: unknown }).chat_id)
      const expected = users.map(String)
      if (JSON.stringify([...delivered].map(String).sort()) !== JSON.stringify(expected)) {
        throw new Error(`replies delivered after the outage: ${JSON.stringify(delivered)} (want one each to ${expected.join(", ")})`)
      }
      const failures = (await S.allEvents(server.url)).filter((e) => e.event._tag === "ReplyFailed").length
      if (failures !== outageSends) throw new Error(`${failures} ReplyFailed events for ${outageSends} failed sends`)
      // The window in which a crash would send a reply twice: the request out, its ReplySent recorded.
      const window = "verbatim_reply_send_window_seconds"
      const [sum, count] = [await S.metric(server.url, `${window}_sum`), await S.metric(server.url, `${window}_count`)]
      if (count !== users.length) throw new Error(`${count} send windows measured for ${users.length} replies`)
      const mean = ((sum / count) * 1000).toFixed(1)
      return `${outageSends} failed sends (one ReplyFailed each, retried with backoff), then ${delivered.length} replies delivered once each; send-to-recorded window ${mean} ms on average`
    } finally {
      await S.stop(server)
      await fakes.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })()

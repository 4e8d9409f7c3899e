/**
 * Reminders against the built server. Killed (`kill -9`) at its reminder's due time, once with the
 * send at Telegram and unanswered and once a few milliseconds after the time, then restarted on
 * the same store: the reminder is delivered once and its reply queued once, and the chat gets it
 * once, or twice when the kill fell between the provider's acceptance and the record (the repeat
 * the README's Limits names). Down across the due time: sent once at start, marked late. Two
 * instances on one PostgreSQL deliver each reminder once, one of them killed mid-send.
 */
import { clockText } from "@verbatim/domain/Reminders/Text"
import { FakeAnthropic } from "@verbatim/testkit"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Options } from "./Checks.js"
import { freshDatabase } from "./Database.js"
import { type Fakes, run, startFakes } from "./Fakes.js"
import { holdingProxies } from "./Holding.js"
import * as S from "./Server.js"

const alice = 100_000_001
const messages = [
  "Zoë 👩🏽‍💻 signs the Lisbon lease on Friday. Remind me to call Zoë about the deposit.",
  "Remind me to water Ana's ficus (the big one, not the cactus)."
]
const quotes = ["Remind me to call Zoë about the deposit.", "Remind me to water Ana's ficus (the big one, not the cactus)."]
const common = {
  VERBATIM_ALLOWED_SENDERS: `telegram:${alice}`,
  VERBATIM_SESSION_IDLE_SECONDS: "3600",
  // A lease left by a killed holder lapses within 2 s, so its send is taken up soon after.
  VERBATIM_LEASE_TTL_SECONDS: "2"
}

/** Past this after its due time a delivery says "sent late" (the domain's `lateAfter`). */
const lateAfterMs = 5 * 60_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)))

/** The next whole minute at least `leadMs` ahead: a plan's due is minutes on a clock (UTC, the default zone). */
const dueAhead = (leadMs = 10_000) => Math.ceil((Date.now() + leadMs) / 60_000) * 60_000
const clock = (ms: number) => new Date(ms).toISOString().slice(0, 16)

/** The whole text the chat must get for reminder `i` (its message filed alone in the user's own notes; no public address, so no link). */
const delivered = (i: number, dueMs: number, late: boolean) => {
  const due = clockText(clock(dueMs), "UTC")
  return `Reminder: ${quotes[i]}\n\nFrom your message: ${messages[i]}\n\nIn your own notes: ${messages[i]}\n\n${late ? `Due at ${due}, sent late.` : `Due ${due}.`}`
}

/** Node flags that put a server's clock `ms` ahead (`Date.now`, which Effect's `Clock` reads): as after an outage that long, not waited out. */
const clockAhead = (ms: number) =>
  `--import=data:text/javascript,${encodeURIComponent(`const now = Date.now; Date.now = () => now() + ${Math.round(ms)};`)}`

/** Alice's first `count` messages and `/done`, planned with a reminder in each due at `dueMs`; the reminders' ids. */
const capture = async (url: string, fakes: Fakes, count: number, dueMs: number) => {
  const seqs = Array.from({ length: count }, (_, i) => i + 1)
  const plan = {
    people: [],
    unattached: seqs.map((seq) => ({ sourceItemSeqs: [seq], directives: [] })),
    unclear: [],
    botMessages: [],
    reminders: seqs.map((seq) => ({ seq, quote: quotes[seq - 1], due: clock(dueMs) }))
  }
  await run(fakes.anthropic.script(FakeAnthropic.FakeReply.toolUse(plan)))
  for (const seq of seqs) await S.post(url, seq, alice, messages[seq - 1]!)
  await S.post(url, count + 1, alice, "/done")
  let ids: Array<string> = []
  await S.until("the plan's reminders scheduled", async () => {
    const scheduled = (await S.allEvents(url)).filter((e) => e.event._tag === "ReminderScheduled")
    ids = quotes.slice(0, count).map((quote) => String(scheduled.find((e) => e.event["quote"] === quote)?.event["reminderId"] ?? ""))
    return ids.every((id) => id !== "")
  }, 30_000)
  return ids
}

/** The texts of reminder `i` the fake Telegram received. */
const sentOf = async (fakes: Fakes, i: number) =>
  (await run(fakes.telegram.calls))
    .filter((c) => c.method === "sendMessage")
    .map((c) => String((c.body as { text?: unknown }).text))
    .filter((text) => text.startsWith(`Reminder: ${quotes[i]}\n`))

interface Ledger {
  readonly reminder: ReadonlyArray<string>
  readonly reply: ReadonlyArray<string>
  readonly sent: ReadonlyArray<string>
}

/** Reminder `i`'s stream, the stream of its reply (queued under the reminder and its due instant), and what the chat got of it. */
const ledger = async (url: string, fakes: Fakes, i: number, id: string, dueMs: number): Promise<Ledger> => {
  const events = await S.allEvents(url)
  const tags = (stream: string) => events.filter((e) => e.streamId === stream).map((e) => e.event._tag)
  return { reminder: tags(`reminder-${id}`), reply: tags(`reply-reminder:${id}:${dueMs}`), sent: await sentOf(fakes, i) }
}

/** The ledger once the reply is recorded sent, and 2 s more for anything doubled to show. */
const settled = async (url: string, fakes: Fakes, i: number, id: string, dueMs: number) => {
  await S.until(`reminder ${i + 1}'s reply recorded sent`, async () => (await ledger(url, fakes, i, id, dueMs)).reply.includes("ReplySent"))
  await sleep(2_000)
  return ledger(url, fakes, i, id, dueMs)
}

const want = { reminder: ["ReminderScheduled", "ReminderDelivered"], reply: ["ReplyQueued", "ReplySent"] }

/** Delivered once, its reply queued and recorded sent once, and the chat got `text` whole, at least once and at most `most` times; how often. */
const expectOnce = (what: string, ledger: Ledger, text: string, most: number) => {
  const problems: Array<string> = []
  for (const key of ["reminder", "reply"] as const) {
    if (JSON.stringify(ledger[key]) === JSON.stringify(want[key])) continue
    const named = want[key].flatMap((tag) => {
      const n = ledger[key].filter((t) => t === tag).length
      return n === 0 ? [`${tag} lost`] : n > 1 ? [`${tag} doubled (${n})`] : []
    })
    problems.push(`its ${key} stream holds ${JSON.stringify(ledger[key])}, want ${JSON.stringify(want[key])}${named.length > 0 ? ` (${named.join(", ")})` : ""}`)
  }
  const other = ledger.sent.filter((t) => t !== text)
  if (other.length > 0) problems.push(`the chat got ${JSON.stringify(other)}, want ${JSON.stringify(text)}`)
  if (ledger.sent.length === 0) problems.push("lost: the chat never got it")
  if (ledger.sent.length > most) problems.push(`doubled: the chat got it ${ledger.sent.length} times, at most ${most} allowed`)
  if (problems.length > 0) throw new Error(`${what}: ${problems.join("; ")}`)
  return ledger.sent.length
}

/** One server on a fresh SQLite store, behind one holding proxy; `body` gets a start function for restarts on that store. */
const onSqlite = async <A>(body: (fakes: Fakes, start: (env?: Record<string, string>) => Promise<S.Running>, holdNext: (text: string) => void) => Promise<A>) => {
  const fakes = await startFakes()
  const holding = await holdingProxies(fakes.telegram.baseUrl, 1)
  const dir = mkdtempSync(join(tmpdir(), "verbatim-reliability-"))
  const running: Array<S.Running> = []
  const start = async (extra: Record<string, string> = {}) => {
    const server = await S.start({ ...fakes.env, ...common, TELEGRAM_API_BASE: holding.urls[0]!, VERBATIM_DATA_DIR: dir, ...extra })
    running.push(server)
    return server
  }
  try {
    return await body(fakes, start, holding.holdNext)
  } finally {
    for (const server of running) await S.stop(server)
    await holding.close()
    await fakes.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** `kill -9` at the due time (`held`: once Telegram has the send and the server no answer; else 25 ms after it), then a restart. */
const killedAtDue = (held: boolean) =>
  onSqlite(async (fakes, start, holdNext) => {
    const first = await start()
    const dueMs = dueAhead()
    const [id = ""] = await capture(first.url, fakes, 1, dueMs)
    const text = delivered(0, dueMs, false)
    if (held) {
      holdNext(text)
      await S.until("the reminder's send at Telegram", async () => (await sentOf(fakes, 0)).length > 0, 90_000, 10)
    } else {
      await sleep(dueMs + 25 - Date.now())
    }
    first.child.kill("SIGKILL")
    const killedAfter = Date.now() - dueMs
    await S.whenExited(first.child)
    const atKill = (await sentOf(fakes, 0)).length
    const second = await start()
    const times = expectOnce(`killed ${killedAfter} ms after due${held ? " with its send unanswered" : ""}`, await settled(second.url, fakes, 0, id, dueMs), text, 2)
    const where = atKill === 0 ? "before the send" : times === 2 ? "between the send and its record" : "after the send was recorded"
    return `kill -9 ${killedAfter} ms after due${held ? " (send unanswered)" : ""} fell ${where}: delivered once, the chat got it ${times}×`
  })

/** Stopped before the due time, started more than `lateAfter` past it (short: its clock moved on instead of waiting). */
const downAcrossDue = (short: boolean) =>
  onSqlite(async (fakes, start) => {
    const first = await start()
    const dueMs = dueAhead(30_000)
    const [id = ""] = await capture(first.url, fakes, 1, dueMs)
    await S.stop(first)
    if (Date.now() >= dueMs) throw new Error("down across the due time: the server was still up at it (the capture took over 30 s)")
    const outage = dueMs + lateAfterMs + 30_000 - Date.now()
    if (!short) await sleep(outage)
    const second = await start(short ? { NODE_OPTIONS: clockAhead(outage) } : {})
    expectOnce("down across the due time", await settled(second.url, fakes, 0, id, dueMs), delivered(0, dueMs, true), 1)
    return `down ${Math.round(outage / 1000)} s across the due time${short ? " (its clock moved on)" : ""}: sent once at start, "sent late"`
  })

export const reminders = (options: Options) =>
  (async () => {
    const steps = await Promise.allSettled([killedAtDue(true), killedAtDue(false), downAcrossDue(options.short)])
    const failed = steps.flatMap((s) => s.status === "rejected" ? [s.reason instanceof Error ? s.reason.message : String(s.reason)] : [])
    if (failed.length > 0) throw new Error(failed.join(" | "))
    return steps.map((s) => s.status === "fulfilled" ? s.value : "").join("; ")
  })()

/** Two instances on one fresh PostgreSQL, two reminders due at once: the instance whose send of the second is out is killed. */
export const remindersOnTwoInstances = (_: Options, url: string) =>
  (async () => {
    const database = await freshDatabase(url, "rem_")
    const env = { ...common, VERBATIM_DATABASE_URL: database.url }
    const fakes = await startFakes()
    const holding = await holdingProxies(fakes.telegram.baseUrl, 2)
    const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), "verbatim-reliability-")))
    const servers = await Promise.all(dirs.map((dir, i) => S.start({ ...fakes.env, ...env, TELEGRAM_API_BASE: holding.urls[i]!, VERBATIM_DATA_DIR: dir })))
    try {
      const dueMs = dueAhead()
      const ids = await capture(servers[0]!.url, fakes, 2, dueMs)
      holding.holdNext(delivered(1, dueMs, false))
      await S.until("the second reminder's send at Telegram", async () => (await sentOf(fakes, 1)).length > 0, 90_000, 10)
      const victim = holding.heldBy() ?? 0
      servers[victim]!.child.kill("SIGKILL")
      const killedAfter = Date.now() - dueMs
      const survivor = servers[1 - victim]!
      const [first, second] = await Promise.all([0, 1].map((i) => settled(survivor.url, fakes, i, ids[i] ?? "", dueMs)))
      expectOnce("the reminder due with both instances up", first!, delivered(0, dueMs, false), 1)
      const times = expectOnce(`the reminder whose sender was killed ${killedAfter} ms after due`, second!, delivered(1, dueMs, false), 2)
      return `both up: delivered once, sent once; the instance sending the second killed ${killedAfter} ms after due: the other delivered it once, the chat got it ${times}×`
    } finally {
      for (const server of servers) await S.stop(server)
      await holding.close()
      await fakes.close()
      await database.drop()
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
    }
  })()

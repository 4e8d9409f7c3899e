/**
 * Benchmark: the reads at a million messages. Builds a store through the log (domain events
 * written straight into the events table, then `verbatim rebuild` so every read model is the
 * projections' own), starts the bundled server on it and times each read under 16 connections
 * in a closed loop (p50, p99, target p99 ≤ 50 ms); then times `verbatim export markdown` with
 * its peak RSS.
 *
 * The store: `--messages` messages (1,000,000) in sessions of 10 across 100 users. One heavy
 * user holds a fifth of them, with 5,000 people, one of whom (the star) has a note in each of
 * the heavy user's sessions (20,000 at full scale); every session is closed, planned and
 * applied, with its reply queued and sent; one in ten parks a question. Half the messages hold
 * the word "lyon"; three hold "zanzibar quartet". Everything scales with `--messages`.
 *
 *   npm run bench:reads -- [--messages 1000000] [--requests 20] [--postgres postgres://… [--analyze]] [--only reads|export]
 *                          [--bundle DIR/verbatim.mjs]
 *
 * With `--bundle`, the reads and the export are those of that bundle (an earlier commit's, say)
 * rather than this checkout's; the store is built, or reused, as without it.
 *
 * On SQLite the built store is kept under .bench-data/ keyed by its parameters, so a second run
 * skips the build; with `--postgres URL` each run builds on a fresh database of that server,
 * dropped at the end unless `--keep` (its URL is printed, to look at its plans).
 */
import { SqlClient } from "@effect/sql/SqlClient"
import type { Event } from "@verbatim/domain/Events"
import { QuestionId, ReplyId, UserId } from "@verbatim/domain/Ids"
import * as Store from "@verbatim/projections/Store"
import { bundle, bundlePath, cliNodeFlags } from "@verbatim/server/scripts/bundle"
import * as G from "@verbatim/testkit/Given"
import { Effect, type Layer } from "effect"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { performance } from "node:perf_hooks"
import { eventRow, insertEventRows } from "./fillLog.js"
import { numberFlag } from "./flags.js"
import { cliRun, rebuildInChild } from "./rebuildRounds.js"
import { admin, freshDatabase } from "./reliability/Database.js"
import { startFakes } from "./reliability/Fakes.js"
import * as S from "./reliability/Server.js"

const messages = numberFlag("messages", 1_000_000)
const requests = numberFlag("requests", 20)
const connections = 16
const postgresAt = process.argv.indexOf("--postgres")
const postgres = postgresAt === -1 ? undefined : process.argv[postgresAt + 1]!
/** On PostgreSQL, `ANALYZE` after the rebuild, as autovacuum would once enough rows changed (a rebuild leaves the read model unanalyzed). */
const analyze = process.argv.includes("--analyze")
const keep = process.argv.includes("--keep")
const onlyAt = process.argv.indexOf("--only")
/** `reads` or `export` alone (a cached store makes either quick to repeat). */
const only = onlyAt === -1 ? undefined : process.argv[onlyAt + 1]!
const bundleAt = process.argv.indexOf("--bundle")
/** The bundle whose reads and export are measured. */
const measured = bundleAt === -1 ? bundlePath : resolve(process.argv[bundleAt + 1]!)
/** Bumped whenever the generator changes, so a cached store of the old shape is not reused. */
const generatorVersion = 2

// The shape at full scale, scaled by `--messages`.
const scale = messages / 1_000_000
const perSession = 10
const users = 100
const sessions = Math.round(messages / perSession)
const heavyPeople = Math.max(2, Math.round(5_000 * scale))
const otherPeople = Math.max(1, Math.round(50 * scale))
const heavy = UserId.make("telegram:200000000")
const other = (k: number) => UserId.make(`telegram:${200_000_001 + k}`)
const heavyPerson = (k: number) => `heavy-person-${k}`
const star = heavyPerson(0)
/** One session in five is the heavy user's: a fifth of the messages. */
const owner = (i: number) => {
  if (i % 5 === 0) return { user: heavy, s: i / 5 }
  const j = i - Math.floor(i / 5) - 1
  return { user: other(j % (users - 1)), s: Math.floor(j / (users - 1)) }
}
const rare = new Set([7, Math.floor(sessions / 2) + 7, sessions - 3])

interface Built {
  readonly heavy: string
  readonly star: string
  readonly starNote: string
  readonly session: string
  readonly deepEventCursor: string
  readonly events: number
  readonly fillSeconds: number
  readonly rebuildSeconds: number
  readonly rebuildPeakRssMb: number
}

const text = (sessionId: string, seq: number, i: number) =>
  seq === 3 && rare.has(i)
    ? `Message ${seq} of ${sessionId}: tickets for the zanzibar quartet on Friday`
    : seq % 2 === 0
    ? `Message ${seq} of ${sessionId}: Ana moved to Lyon and asked about the lease`
    : `Message ${seq} of ${sessionId}: the market was busy, remind me about bread`

/** `event` as `user`'s (the testkit's builders record one fixed user), in `chat` where it has one. */
const owned = (event: Event, user: UserId, chat?: string): Event => ({ ...event, user, ...(chat === undefined ? {} : { chat }) }) as Event

/** The events of session `i` (its own stream) and of its reply's stream. */
const sessionEvents = (i: number): ReadonlyArray<readonly [string, ReadonlyArray<Event>]> => {
  const { s, user } = owner(i)
  const id = `s-${i}`
  const chat = user.slice("telegram:".length)
  const planId = `plan-${id}`
  const seqs = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k)
  const asked = s % 10 === 9
  const people: Array<Event> = []
  const notes: Array<Event> = []
  const note = (n: number, range: ReadonlyArray<number>, person: { personId: string; name: string } | null) =>
    notes.push(owned(G.noteRecorded(id, `n-${id}-${n}`, range, { planId, person }), user))
  const add = (personId: string, name: string) => people.push(owned(G.personAdded(personId, name), user))
  if (user === heavy) {
    const k = 1 + (s % (heavyPeople - 1))
    if (s === 0) add(star, "Ana Star")
    if (s < heavyPeople - 1) add(heavyPerson(k), `Person ${k}`)
    note(1, seqs(1, 3), { personId: star, name: "Ana Star" })
    note(2, seqs(4, 6), { personId: heavyPerson(k), name: `Person ${k}` })
    note(3, seqs(7, asked ? 8 : 10), null)
  } else {
    const k = s % otherPeople
    const personId = `${user}-person-${k}`
    note(1, seqs(1, 5), { personId, name: `Person ${k} of ${chat}` })
    note(2, seqs(6, asked ? 8 : 10), null)
  }
  const questions: Array<Event> = asked ? [owned(G.questionParked(id, `q-${id}`, [9, 10], planId), user)] : []
  const replyId = `r-${id}`
  return [
    [G.sessionStream(id), [
      owned(G.sessionOpened(id), user, chat),
      ...seqs(1, perSession).map((seq) => {
        const received = G.messageReceived(id, seq, text(id, seq, i)) as Extract<Event, { _tag: "MessageReceived" }>
        return { ...received, message: { ...received.message, sender: user, chat } } as Event
      }),
      G.sessionClosed(id, perSession),
      G.planProduced(id, planId, perSession),
      ...people,
      ...notes,
      ...questions,
      {
        ...(G.planApplied(id, planId) as Extract<Event, { _tag: "PlanApplied" }>),
        noteIds: notes.map((n) => (n as Extract<Event, { _tag: "NoteRecorded" }>).noteId),
        questionIds: asked ? [QuestionId.make(`q-${id}`)] : []
      }
    ]],
    [`reply-${replyId}`, [
      owned(G.replyQueued(replyId, `Filed ${notes.length} note(s).`), user, chat),
      { _tag: "ReplySent", replyId: ReplyId.make(replyId), providerMessageId: `sent-${id}`, sentAt: G.at(700) }
    ]]
  ]
}

/** Write every session's events into the log, a few thousand rows a transaction; the log's size. */
const fill = Effect.gen(function*() {
  let rows: Array<Record<string, string | number>> = []
  let events = 0
  const addedOther = new Set<string>()
  for (let i = 0; i < sessions; i++) {
    for (const [stream, history] of sessionEvents(i)) {
      // Another user's person is added in the first session that names them.
      const extra: Array<Event> = []
      for (const event of history) {
        if (event._tag !== "NoteRecorded" || event.personId === null || event.user === heavy || addedOther.has(event.personId)) continue
        addedOther.add(event.personId)
        extra.push(owned(G.personAdded(event.personId, event.owner._tag === "Person" ? event.owner.name : ""), event.user))
      }
      const at = history.findIndex((e) => e._tag === "NoteRecorded")
      const ordered = extra.length === 0 ? history : [...history.slice(0, at), ...extra, ...history.slice(at)]
      ordered.forEach((event, v) => rows.push(eventRow(stream, v + 1, event)))
    }
    if (rows.length >= 5_000 || i === sessions - 1) {
      yield* insertEventRows(rows)
      events += rows.length
      rows = []
      if (i % 10_000 < 300) console.error(`filled ${i + 1} of ${sessions} sessions (${events} events)`)
    }
  }
  return events
})

/** The cursor of the event nine tenths into the log, for the deep page of `/api/events`. */
const deepCursor = (events: number) =>
  Effect.flatMap(SqlClient, (sql) =>
    Effect.map(
      sql<{ tx_id: number | string; position: number | string }>`SELECT tx_id, position FROM events ORDER BY tx_id, position LIMIT 1 OFFSET ${Math.floor(events * 0.9)}`,
      ([row]) => `${row!.tx_id}:${row!.position}`
    ))

const seconds = (ms: number) => Math.round(ms / 100) / 10

/** Fill the log through `layer`, then rebuild every read model with the bundled command under `env`. */
const build = (layer: Layer.Layer<Store.Services, unknown>, env: Readonly<Record<string, string>>): Promise<Built> =>
  Effect.runPromise(Effect.gen(function*() {
    const started = performance.now()
    const events = yield* fill
    const deepEventCursor = yield* deepCursor(events)
    const fillSeconds = seconds(performance.now() - started)
    console.error(`filled ${events} events in ${fillSeconds} s; rebuilding`)
    const rebuilt = yield* rebuildInChild(bundlePath, env)
    return {
      heavy,
      star,
      starNote: "n-s-0-1",
      session: "s-0",
      deepEventCursor,
      events: rebuilt.events,
      fillSeconds,
      rebuildSeconds: seconds(rebuilt.ms),
      rebuildPeakRssMb: rebuilt.maxRssMb
    }
  }).pipe(Effect.provide(layer)))

/** The SQLite store for these parameters, built unless a previous run left it. */
const sqliteStore = async () => {
  const dataDir = resolve(".bench-data", `reads-v${generatorVersion}-m${messages}`)
  const marker = join(dataDir, "built.json")
  if (existsSync(marker)) {
    console.error(`reusing the store in ${dataDir}`)
    return { env: { VERBATIM_DATA_DIR: dataDir }, built: JSON.parse(readFileSync(marker, "utf8")) as Built, drop: async () => {} }
  }
  rmSync(dataDir, { recursive: true, force: true })
  mkdirSync(dataDir, { recursive: true })
  const env = { VERBATIM_DATA_DIR: dataDir }
  const built = await build(Store.layerSqlite({ filename: join(dataDir, "verbatim.db"), synchronous: "NORMAL" }), env)
  writeFileSync(marker, JSON.stringify(built))
  return { env, built, drop: async () => {} }
}

const postgresStore = async (serverUrl: string) => {
  const database = await freshDatabase(serverUrl, "reads_")
  const env = { VERBATIM_DATABASE_URL: database.url }
  try {
    const built = await build(Store.layerPg(database.url, { maxConnections: 4 }), env)
    if (analyze) await admin(database.url, "ANALYZE")
    return { env, built, drop: keep ? async () => console.error(`kept ${database.url}`) : database.drop }
  } catch (error) {
    await database.drop()
    throw error
  }
}

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((sorted.length * p) / 100) - 1)]!

/** GET `path` until each of 16 connections made `requests` (after one warm-up each) or 30 s passed. */
const measure = async (url: string, path: string, headers: Record<string, string>) => {
  const once = async () => {
    const started = performance.now()
    const response = await fetch(`${url}${path}`, { headers, signal: AbortSignal.timeout(120_000) })
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`)
    return performance.now() - started
  }
  // One connection first: the read's own time, without the queue 16 connections make on one event loop.
  const alone: Array<number> = []
  for (let k = 0; k < 10; k++) alone.push(await once())
  await Promise.all(Array.from({ length: connections }, once))
  const deadline = performance.now() + 30_000
  const samples: Array<number> = []
  await Promise.all(Array.from({ length: connections }, async () => {
    for (let k = 0; k < requests && performance.now() < deadline; k++) samples.push(await once())
  }))
  return { sorted: [...samples].sort((a, b) => a - b), alone: [...alone].sort((a, b) => a - b) }
}

/** `path` from `cursor` on (the first page when there is none). */
const withCursor = (path: string, cursor: string | null) =>
  cursor === null ? path : `${path}${path.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(cursor)}`

/** The `nextCursor` that leads to the last page of a list read at the API's default page size (100). */
const lastPageCursor = async (url: string, path: string) => {
  let cursor: string | null = null
  for (;;) {
    const page = await S.api(url, withCursor(path, cursor))
    if (page.status !== 200) throw new Error(`GET ${path} answered ${page.status}`)
    const next = (page.body as { nextCursor: string | null }).nextCursor
    if (next === null) return cursor
    cursor = next
  }
}

const measureReads = async (env: Readonly<Record<string, string>>, built: Built) => {
  const fakes = await startFakes()
  const server = await S.start({ ...fakes.env, ...env, VERBATIM_ALLOWED_SENDERS: `telegram:${built.heavy.slice("telegram:".length)}` }, measured)
  try {
    const signIn = await fetch(`${server.url}/signin`, { method: "POST", body: new URLSearchParams({ token: S.apiToken }), redirect: "manual" })
    const cookie = signIn.headers.get("set-cookie")?.split(";")[0]
    if (cookie === undefined) throw new Error(`sign-in answered ${signIn.status} without a cookie`)
    const user = encodeURIComponent(built.heavy)
    const deepPerson = await lastPageCursor(server.url, `/api/people?user=${user}`)
    const deepNotes = await lastPageCursor(server.url, `/api/people/${built.star}/notes`)
    const api = { authorization: `Bearer ${S.apiToken}` }
    const web = { cookie }
    const reads: ReadonlyArray<readonly [string, string, Record<string, string>]> = [
      ["API people, first page", `/api/people?user=${user}`, api],
      ["API people, deep page", withCursor(`/api/people?user=${user}`, deepPerson), api],
      ["API person's notes, first page", `/api/people/${built.star}/notes`, api],
      ["API person's notes, deep page", withCursor(`/api/people/${built.star}/notes`, deepNotes), api],
      ["API note audit", `/api/notes/${built.starNote}/audit`, api],
      ["API open questions", `/api/questions?status=open&user=${user}`, api],
      ["API session accounting", `/api/sessions/${built.session}/accounting`, api],
      ["API events, first page", `/api/events`, api],
      ["API events, deep page", `/api/events?after=${built.deepEventCursor}`, api],
      ["API search, word in half the messages", `/api/search?q=lyon`, api],
      ["API search, rare phrase", `/api/search?q=${encodeURIComponent("zanzibar quartet")}`, api],
      ["API search in the heavy user's messages, word in half", `/api/search?q=lyon&user=${user}`, api],
      ["API search in the heavy user's messages, rare phrase", `/api/search?q=${encodeURIComponent("zanzibar quartet")}&user=${user}`, api],
      ["page: people (/)", `/`, web],
      ["page: person (/people/:id)", `/people/${built.star}`, web],
      ["page: note (/notes/:id)", `/notes/${built.starNote}`, web],
      ["page: questions", `/questions`, web],
      ["page: session", `/sessions/${built.session}`, web],
      ["page: search, word in half the messages", `/search?q=lyon`, web],
      ["page: search, rare phrase", `/search?q=${encodeURIComponent("zanzibar quartet")}`, web]
    ]
    const rows: Array<string> = []
    for (const [name, path, headers] of reads) {
      const { alone, sorted } = await measure(server.url, path, headers)
      const p99 = percentile(sorted, 99)
      const row = `| ${name} | ${percentile(sorted, 50).toFixed(1)} | ${p99.toFixed(1)} | ${sorted.length} | ${percentile(alone, 50).toFixed(1)} | ≤ 50 ms p99 | ${
        p99 <= 50 ? "yes" : "no"
      } |`
      console.error(row)
      rows.push(row)
    }
    return rows
  } finally {
    await S.stop(server)
    await fakes.close()
  }
}

/** `verbatim export markdown` into a fresh folder under these Node flags. */
const exportOnce = (env: Readonly<Record<string, string>>, nodeFlags: ReadonlyArray<string>) => {
  const dir = mkdtempSync(join(tmpdir(), "verbatim-export-"))
  try {
    return cliRun(measured, { ...env, HOME: process.env["HOME"] ?? "" }, ["export", "markdown", join(dir, "out")], nodeFlags)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * `verbatim export markdown`: wall time and peak RSS with the CLI's heap cap (256 MB) and, when
 * it runs out of heap under it, again without, for the time it takes.
 */
const measureExport = (env: Readonly<Record<string, string>>, heavyMessages: number) => {
  const row = (flags: string, run: ReturnType<typeof cliRun>, capped: boolean) => {
    const s = run.ms / 1000
    const said = run.ok ? run.stdout.trim() : /heap out of memory/.test(run.stderr) ? "ran out of heap" : `failed (${run.exit}): ${run.stderr.slice(-300).replace(/\n/g, " ")}`
    return `| \`verbatim export markdown\`, ${flags} (every user; the heavy one's ${heavyMessages} messages among them) | ${s.toFixed(1)} s | ${
      run.maxRssMb ?? "—"
    } MB | ≤ 60 s, bounded memory | ${run.ok && capped && s <= 60 ? "yes" : "no"} | ${said} |`
  }
  const capped = exportOnce(env, cliNodeFlags)
  return capped.ok
    ? [row("the CLI's flags (--max-old-space-size=256)", capped, true)]
    : [row("the CLI's flags (--max-old-space-size=256)", capped, true), row("no heap cap", exportOnce(env, []), false)]
}

await bundle()
const backend = postgres === undefined ? "SQLite" : "PostgreSQL"
const store = postgres === undefined ? await sqliteStore() : await postgresStore(postgres)
try {
  const { built } = store
  console.log(`${backend}${postgres !== undefined && analyze ? " (ANALYZE after the rebuild)" : ""}, ${messages} messages in ${sessions} sessions, ${built.events} events; heavy user ${built.heavy} with ${heavyPeople} people, ${
    Math.ceil(sessions / 5)
  } notes on ${built.star}; fill ${built.fillSeconds} s, rebuild ${built.rebuildSeconds} s (peak RSS ${built.rebuildPeakRssMb} MB); ${connections} connections, up to ${requests} requests each after one warm-up, 30 s cap a read`)
  if (only !== "export") {
    const rows = await measureReads(store.env, built)
    console.log(["", "| read | p50 ms | p99 ms | requests | 1 connection p50 ms | target | met |", "|---|---|---|---|---|---|---|", ...rows].join("\n"))
  }
  if (only !== "reads") {
    const rows = measureExport(store.env, Math.ceil(sessions / 5) * perSession)
    console.log(["", "| command | wall | peak RSS | target | met | output |", "|---|---|---|---|---|---|", ...rows].join("\n"))
  }
} finally {
  await store.drop()
}

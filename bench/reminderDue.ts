/**
 * Benchmark: finding what is due among many reminders. Reminders are written straight into the
 * read model (`reminders`, with the sessions and messages its query joins): `--scheduled` of them
 * due over the coming year, 100 due now, and as many again already delivered; then what is due
 * (`dueReminders(now, 100)`) and when the next falls due (`nextDue`) are timed `--runs` times,
 * at 10,000 reminders and at `--scheduled` (1,000,000 by default), so the two sizes compare in
 * one run: the partial index on `due_at` of those still scheduled makes the cost the due ones'.
 *
 *   npm run bench:reminder-due -- [--scheduled 1000000] [--runs 50]
 * PostgreSQL is included when VERBATIM_DATABASE_URL is set (its tables are emptied first).
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { dueReminders, nextDue } from "@verbatim/projections/Queries/Reminders"
import * as Store from "@verbatim/projections/Store"
import type { Services } from "@verbatim/projections/Store"
import { Config, Effect, type Layer, Option, Redacted } from "effect"
import { mkdirSync, rmSync } from "node:fs"
import { join, resolve } from "node:path"
import { performance } from "node:perf_hooks"
import { numberFlag } from "./flags.js"

const scheduled = numberFlag("scheduled", 1_000_000)
const runs = numberFlag("runs", 50)
const now = Date.parse("2026-01-05T09:00:00Z")
const chunk = 500

/** Reminders `from`…`to` (exclusive): users of 100 reminders, each with one session and message; the first 100 due now. */
const fill = (from: number, to: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    for (let at = from; at < to; at += chunk * 10) {
      yield* sql.withTransaction(Effect.gen(function*() {
        for (let start = at; start < Math.min(to, at + chunk * 10); start += chunk) {
          const ids = Array.from({ length: Math.min(chunk, to - start) }, (_, i) => start + i)
          const sessions = ids.filter((n) => n % 100 === 0).map((n) => ({
            session_id: `s${n / 100}`, user_id: `telegram:${n / 100}`, provider: "telegram", chat: String(n / 100),
            opened_at: "2026-01-01T00:00:00.000Z", closed_at: null, close_reason: null, message_count: 1, last_plan_failure: null
          }))
          const messages = sessions.map((s) => ({
            message_id: `${s.session_id}/1`, session_id: s.session_id, seq: 1, provider: "telegram", provider_message_id: s.session_id,
            sender: s.user_id, chat: s.chat, kind: "text", text: "Remind me to call Ana.", forwarded_from: null, reply_to: null,
            received_at: "2026-01-01T00:00:00.000Z", edited_at: null, revisions: 0
          }))
          const reminders = ids.flatMap((n) => {
            const session = `s${Math.floor(n / 100)}`
            const row = (id: string, dueAt: number, status: string) => ({
              reminder_id: id, user_id: `telegram:${Math.floor(n / 100)}`, session_id: session, plan_id: `p${session}`, message_id: `${session}/1`,
              quote: "Remind me to call Ana.", quote_start: 0, quote_end: 22, note_id: null, due_at: dueAt, zone: "UTC",
              due_local: new Date(dueAt).toISOString().slice(0, 16), status, delivered_at: null, late: 0, finished_at: null, position: n
            })
            // The first 100 are due now; the rest spread over the coming year; each with a delivered one beside it.
            const due = n < 100 ? now - 60_000 : now + 60_000 + ((n * 7919) % 31_536_000) * 1000
            return [row(`r${n}`, due, "scheduled"), row(`d${n}`, now - 86_400_000, "delivered")]
          })
          if (sessions.length > 0) {
            yield* sql`INSERT INTO sessions ${sql.insert(sessions)}`
            yield* sql`INSERT INTO messages ${sql.insert(messages)}`
          }
          for (let i = 0; i < reminders.length; i += chunk) yield* sql`INSERT INTO reminders ${sql.insert(reminders.slice(i, i + chunk))}`
        }
      }))
    }
  })

const median = (times: Array<number>) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!

const time = <A, E>(query: Effect.Effect<A, E, SqlClient>) =>
  Effect.gen(function*() {
    const times: Array<number> = []
    let found: A | undefined
    for (let run = -5; run < runs; run++) {
      const start = performance.now()
      found = yield* query
      if (run >= 0) times.push(performance.now() - start)
    }
    return { medianMs: +median(times).toFixed(3), maxMs: +times.at(-1)!.toFixed(3), found }
  })

const measure = (backend: string, layer: Layer.Layer<Services, unknown>, empty: Effect.Effect<void, unknown, SqlClient>) =>
  Effect.gen(function*() {
    yield* empty
    let filled = 0
    for (const size of [10_000, scheduled]) {
      const filling = performance.now()
      yield* fill(filled, size)
      filled = size
      yield* Effect.flatMap(SqlClient, (sql) => sql.onDialectOrElse({ pg: () => sql`ANALYZE`, orElse: () => sql`ANALYZE` }))
      const due = yield* time(dueReminders(now, 100))
      const next = yield* time(nextDue)
      console.log(JSON.stringify({
        backend,
        scheduled: size,
        rows: size * 2,
        fillS: +((performance.now() - filling) / 1000).toFixed(1),
        due: { medianMs: due.medianMs, maxMs: due.maxMs, found: due.found?.length },
        nextDue: { medianMs: next.medianMs, maxMs: next.maxMs }
      }))
    }
  }).pipe(Effect.provide(layer))

const program = Effect.gen(function*() {
  const dir = resolve(".bench-data", "reminder-due")
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  console.log(JSON.stringify({ node: process.version, scheduled, runs }))
  yield* measure("sqlite", Store.layerSqlite({ filename: join(dir, "verbatim.db"), synchronous: "NORMAL" }), Effect.void)
  const url = yield* Config.option(Config.redacted("VERBATIM_DATABASE_URL"))
  if (Option.isSome(url)) {
    yield* measure("postgresql", Store.layerPg(Redacted.value(url.value), { maxConnections: 4 }), Effect.flatMap(SqlClient, (sql) => sql`TRUNCATE sessions, messages, reminders`))
  } else console.log(JSON.stringify({ backend: "postgresql", skipped: "VERBATIM_DATABASE_URL is not set" }))
  rmSync(dir, { recursive: true, force: true })
})

Effect.runPromise(program).catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})

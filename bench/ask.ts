/**
 * Benchmark: finding an ask's candidates (`askCandidates`: the people a question names, the newest
 * messages holding each of its words, the newest messages) for a user with 200,000 messages, on
 * each backend, beside another user's 50,000. The read model is written straight into its tables
 * (the search index kept by its triggers), then each question is timed `--runs` times after a
 * warm-up; medians and p95 are reported. The target is at most 50 ms.
 *
 *   npm run bench:ask -- [--messages 200000] [--runs 30] [--only sqlite,postgresql] [--keep]
 * (`--keep` leaves the SQLite database in .bench-data/ask for a look at its query plans).
 * PostgreSQL is included when VERBATIM_DATABASE_URL is set (its tables are emptied first).
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { questionTerms } from "@verbatim/domain/Ask/Question"
import { UserId } from "@verbatim/domain/Ids"
import { askCandidates } from "@verbatim/projections/Queries/Asks"
import * as Store from "@verbatim/projections/Store"
import type { Services } from "@verbatim/projections/Store"
import { Config, Effect, Layer, Option, Redacted } from "effect"
import { mkdirSync, rmSync } from "node:fs"
import { join, resolve } from "node:path"
import { performance } from "node:perf_hooks"
import { numberFlag } from "./flags.js"

const messages = numberFlag("messages", 200_000)
const runs = numberFlag("runs", 30)
const onlyAt = process.argv.indexOf("--only")
const only = onlyAt === -1 ? undefined : process.argv[onlyAt + 1]!.split(",")

const asker = UserId.make("telegram:1")
const other = UserId.make("telegram:2")

const names = ["Ana", "Tomás", "Bea", "Jürgen", "Cleo", "Duarte", "Inês", "Marta", "Rui", "Sofia"]
const people = Array.from({ length: 500 }, (_, i) => `${names[i % names.length]} ${i >= names.length ? `N${i}` : ""}`.trim())
/** Words in Zipf-like proportion: a few in most messages, most in few. */
const vocabulary = Array.from({ length: 3_000 }, (_, i) => `w${i.toString(36)}`)
const sentence = (n: number) => {
  const words: Array<string> = []
  for (let k = 0; k < 12; k++) words.push(vocabulary[Math.floor(vocabulary.length ** (((n * 7919 + k * 104729) % 10_007) / 10_007)) - 1]!)
  return words.join(" ")
}
const extras = ["is moving to Lisbon", "said the flat is too small", "starts at the clinic", "lent me her bike", "had a baby"]

/** A user's sessions of 8 messages, each filed as one note about one of their people. */
const fill = (user: UserId, count: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const t0 = Date.parse("2024-01-01T00:00:00Z")
    yield* sql.withTransaction(sql`INSERT INTO people ${sql.insert(people.map((name, i) => ({ person_id: `${user}-p${i}`, user_id: user, name, position: i })))}`)
    for (let s = 0; s * 8 < count; s += 100) {
      const sessions: Array<Record<string, unknown>> = []
      const rows: Array<Record<string, unknown>> = []
      const notes: Array<Record<string, unknown>> = []
      const sources: Array<Record<string, unknown>> = []
      for (let j = s; j < s + 100 && j * 8 < count; j++) {
        const session = `${user}:s${j}`
        const person = (j * 31) % people.length
        sessions.push({ session_id: session, user_id: user, provider: "telegram", chat: user, opened_at: new Date(t0 + j * 600_000).toISOString(), closed_at: null, close_reason: null, message_count: 8, last_plan_failure: null })
        notes.push({ note_id: `${session}-n`, session_id: session, user_id: user, plan_id: null, question_id: null, owner_kind: "person", owner_contact_id: null, owner_name: people[person], person_id: `${user}-p${person}`, merged_from: 1, body: "", unmatched_directives: 0, position: j })
        for (let k = 1; k <= 8; k++) {
          const n = j * 8 + k
          const text = `${k === 1 ? `${people[person]} ${extras[n % extras.length]}. ` : ""}${sentence(n)}`
          const id = `${session}:${k}`
          rows.push({ message_id: id, session_id: session, seq: k, provider: "telegram", provider_message_id: id, sender: user, chat: user, kind: "text", text, forwarded_from: null, reply_to: null, received_at: new Date(t0 + n * 60_000).toISOString(), edited_at: null, revisions: 0 })
          sources.push({ message_id: id, note_id: `${session}-n`, seq: k })
        }
      }
      yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO sessions ${sql.insert(sessions)}`
        for (let i = 0; i < rows.length; i += 200) yield* sql`INSERT INTO messages ${sql.insert(rows.slice(i, i + 200))}`
        yield* sql`INSERT INTO notes ${sql.insert(notes)}`
        for (let i = 0; i < sources.length; i += 400) yield* sql`INSERT INTO note_sources ${sql.insert(sources.slice(i, i + 400))}`
      }))
    }
  })

const questions = [
  "what do I know about Ana?",
  "who is moving to Lisbon?",
  "what did Tomás say about the flat?",
  `which messages mention ${vocabulary[1]}?`,
  "anything about zzyzx?"
]

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!

const measure = (backend: string, layer: Layer.Layer<Services, unknown>, empty: Effect.Effect<void, unknown, SqlClient>) =>
  Effect.gen(function*() {
    yield* empty
    const filling = performance.now()
    yield* fill(asker, messages)
    yield* fill(other, Math.floor(messages / 4))
    // Statistics as a running store has them (PostgreSQL's autovacuum gathers them; SQLite's planner runs without).
    yield* Effect.flatMap(SqlClient, (sql) => sql.onDialectOrElse({ pg: () => sql`ANALYZE`, orElse: () => Effect.succeed([]) }))
    console.log(JSON.stringify({ backend, filled: messages + Math.floor(messages / 4), fillMs: Math.round(performance.now() - filling) }))
    const times = questions.map(() => [] as Array<number>)
    const found = questions.map(() => 0)
    // Rounds over every question in turn, the first five unmeasured: each question sees the same machine.
    for (let round = -5; round < runs; round++) {
      for (const [i, question] of questions.entries()) {
        const start = performance.now()
        found[i] = (yield* askCandidates(asker, question, questionTerms(question))).length
        if (round >= 0) times[i]!.push(performance.now() - start)
      }
    }
    for (const [i, question] of questions.entries()) {
      const sorted = times[i]!.sort((a, b) => a - b)
      console.log(JSON.stringify({ backend, question, terms: questionTerms(question), candidates: found[i], medianMs: +percentile(sorted, 0.5).toFixed(2), p95Ms: +percentile(sorted, 0.95).toFixed(2), maxMs: +sorted.at(-1)!.toFixed(2) }))
    }
  }).pipe(Effect.provide(layer))

const program = Effect.gen(function*() {
  const dir = resolve(".bench-data", "ask")
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  console.log(JSON.stringify({ node: process.version, messages, runs }))
  if (only === undefined || only.includes("sqlite")) {
    yield* measure("sqlite", Store.layerSqlite({ filename: join(dir, "verbatim.db"), synchronous: "NORMAL" }), Effect.void)
  }
  const url = yield* Config.option(Config.redacted("VERBATIM_DATABASE_URL"))
  if (Option.isSome(url) && (only === undefined || only.includes("postgresql"))) {
    const emptied = Effect.flatMap(SqlClient, (sql) => sql`TRUNCATE people, sessions, messages, notes, note_sources`)
    yield* measure("postgresql", Store.layerPg(Redacted.value(url.value), { maxConnections: 4 }), emptied)
  } else console.log(JSON.stringify({ backend: "postgresql", skipped: "VERBATIM_DATABASE_URL is not set" }))
  if (!process.argv.includes("--keep")) rmSync(dir, { recursive: true, force: true })
})

Effect.runPromise(program).catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})

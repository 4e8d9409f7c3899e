/**
 * Benchmark: what a rebuild split across two threads could save, measured on its own pages. A
 * thread hands another values by copying them (`postMessage` runs V8's serializer, whose cost
 * `v8.serialize` and `v8.deserialize` show), so a second thread only helps where the copy costs
 * less than the work it takes away. On SQLite, per page of 2,000 events:
 *
 * - the rebuild's own page loop, each phase timed: `select` (the page's query on the log), `read`
 *   (parse, upcast and check each payload), `project` (load the rows the page names and apply the
 *   events to them), `flush` (write the changed rows) — the same calls `Rebuild.rebuild` makes,
 *   in one transaction with the search index suspended as there;
 * - `parse` alone, and the parsed page copied across (`eventsSerialize`, `eventsDeserialize`:
 *   the receiver pays the second), for a reader thread;
 * - the rows a page writes, as objects, copied across (`rowsSerialize`, `rowsDeserialize`), for
 *   a writer thread.
 *
 *   npm run bench:handoff -- [--pages 40] [--rounds 5]
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { start as logStart, checkpointOf } from "@verbatim/projections/EventStore"
import type { Checkpoint } from "@verbatim/projections/EventStore"
import { flush, project } from "@verbatim/projections/Projections/Projector"
import { tables, truncateTables } from "@verbatim/projections/Projections/Tables"
import { withSearchIndexWhole } from "@verbatim/projections/Queries/SearchIndex"
import * as Store from "@verbatim/projections/Store"
import * as Dialects from "@verbatim/projections/internal/Dialect"
import { decodeAll, toReplayed } from "@verbatim/projections/internal/Rows"
import Database from "better-sqlite3"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { deserialize, serialize } from "node:v8"
import { fillLog } from "./fillLog.js"
import { numberFlag } from "./flags.js"
import { median } from "./rebuildRounds.js"

const pages = numberFlag("pages", 40)
const rounds = numberFlag("rounds", 5)
const pageSize = 2000

const round2 = (ms: number) => Math.round(ms * 100) / 100

/** Milliseconds `f` takes. */
const timed = (f: () => unknown) => {
  const start = performance.now()
  f()
  return performance.now() - start
}

/** Milliseconds an effect takes, added to `into[phase]`. */
const phase = <A, E, R>(into: Record<string, Array<number>>, name: string, effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const start = performance.now()
    const value = yield* effect
    ;(into[name] ??= []).push(performance.now() - start)
    return value
  })

/** Replay the log as `Rebuild.rebuild` does on SQLite, timing each phase of each page. */
const replayTimed = Effect.gen(function*() {
  const sql = yield* SqlClient
  const phases: Record<string, Array<number>> = {}
  yield* sql.withTransaction(Effect.zipRight(Dialects.sqlite.lockLog(sql), withSearchIndexWhole(Effect.gen(function*() {
    yield* truncateTables
    for (let cursor: Checkpoint = logStart;;) {
      const rows = yield* phase(phases, "select", Dialects.sqlite.replayAfter(sql, cursor, pageSize))
      const page = yield* phase(phases, "read", Effect.suspend(() => decodeAll(rows, toReplayed)))
      const batch = yield* phase(phases, "project", project(page))
      yield* phase(phases, "flush", flush(batch))
      const last = page[page.length - 1]
      if (last === undefined || page.length < pageSize) return
      cursor = checkpointOf(last)
    }
  }))))
  return phases
})

/** Fill the log and replay it twice (the first warms up); returns the second's milliseconds per phase and page. */
const prepare = (filename: string) =>
  Effect.gen(function*() {
    yield* fillLog(pages * pageSize)
    yield* replayTimed
    return yield* replayTimed
  }).pipe(Effect.provide(Store.layerSqlite({ filename, synchronous: "FULL" })))

/** Every read-model row, as objects, cut into `pages` equal slices in table order. */
const rowPages = (db: Database.Database): ReadonlyArray<ReadonlyArray<unknown>> => {
  const rows = tables.flatMap((t) => db.prepare(`SELECT * FROM ${t.name} ORDER BY rowid`).all())
  const per = Math.ceil(rows.length / pages)
  return Array.from({ length: pages }, (_, i) => rows.slice(i * per, (i + 1) * per))
}

const main = async () => {
  const dir = mkdtempSync(join(tmpdir(), "verbatim-handoff-"))
  const filename = join(dir, "verbatim.db")
  try {
    const replay = await Effect.runPromise(prepare(filename))
    const db = new Database(filename, { readonly: true })
    const page = db.prepare(
      `SELECT position, tx_id, type, schema_version, payload FROM events WHERE position > ? ORDER BY position LIMIT ${pageSize}`
    )
    const logPages: Array<ReadonlyArray<{ position: number; payload: string }>> = []
    for (let cursor = 0; logPages.length < pages;) {
      const rows = page.all(cursor) as Array<{ position: number; payload: string }>
      logPages.push(rows)
      cursor = rows[rows.length - 1]!.position
    }
    const parsed = logPages.map((rows) => rows.map((r) => ({ position: r.position, event: JSON.parse(r.payload) as unknown })))
    const written = rowPages(db)
    const parsedCopies = parsed.map((p) => serialize(p))
    const rowCopies = written.map((p) => serialize(p))
    const samples = { select: [] as Array<number>, parse: [] as Array<number>, eventsSerialize: [] as Array<number>, eventsDeserialize: [] as Array<number>, rowsSerialize: [] as Array<number>, rowsDeserialize: [] as Array<number> }
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < pages; i++) {
        const cursor = i === 0 ? 0 : logPages[i - 1]![logPages[i - 1]!.length - 1]!.position
        samples.select.push(timed(() => page.all(cursor)))
        samples.parse.push(timed(() => logPages[i]!.map((row) => JSON.parse(row.payload))))
        samples.eventsSerialize.push(timed(() => serialize(parsed[i])))
        samples.eventsDeserialize.push(timed(() => deserialize(parsedCopies[i]!)))
        samples.rowsSerialize.push(timed(() => serialize(written[i])))
        samples.rowsDeserialize.push(timed(() => deserialize(rowCopies[i]!)))
      }
    }
    db.close()
    const perPage = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, round2(median(v))]))
    console.log(JSON.stringify({
      node: process.version,
      events: pages * pageSize,
      rowsPerPage: written[0]!.length,
      // Means, not medians: a collection lands in whichever phase is running, and counts. Over
      // the full pages: the replay's last read finds an empty page, which costs next to nothing.
      replayMeanMsPerPage: Object.fromEntries(Object.entries(replay).map(([k, v]) => [k, round2(v.reduce((a, b) => a + b, 0) / pages)])),
      medianMsPerPage: perPage
    }))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})

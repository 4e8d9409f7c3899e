/**
 * The floor a rebuild is measured against: the raw scan of the log (timed by the caller) plus
 * writing the very rows the rebuild produced, with nothing in between — plain prepared statements
 * through better-sqlite3 on SQLite, one multi-row `unnest` insert per page and table on PostgreSQL.
 * The rows come from a snapshot of the read model taken after a rebuild; reading the snapshot is
 * not timed, only the writes and their commit, so the floor is what storage alone costs. The
 * search index is written as the rebuild writes it: whole, after the rows (`searchIndexWhole`).
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { tables } from "@verbatim/projections/Projections/Tables"
import { searchIndexWhole } from "@verbatim/projections/Queries/SearchIndex"
import Database from "better-sqlite3"
import { Effect } from "effect"
import { rmSync } from "node:fs"
import { performance } from "node:perf_hooks"

/** Rows written per page: the rebuild's own page of events makes about this many rows. */
const pageRows = 2000

const names = tables.map((t) => t.name)

/** Copy every read-model table into `snapshotFile`, in insertion (rowid) order. */
export const snapshotSqlite = (filename: string, snapshotFile: string) => {
  rmSync(snapshotFile, { force: true })
  const db = new Database(filename)
  db.prepare("ATTACH DATABASE ? AS snap").run(snapshotFile)
  for (const name of names) db.exec(`CREATE TABLE snap.${name} AS SELECT * FROM main.${name} ORDER BY rowid`)
  db.exec("DETACH DATABASE snap")
  db.close()
}

/** Empty the read model (not timed: both the rebuild and the floor start from empty tables). */
export const emptySqlite = (filename: string) => {
  const db = new Database(filename)
  db.exec("BEGIN IMMEDIATE")
  for (const name of names) db.exec(`DELETE FROM ${name}`)
  db.exec("COMMIT")
  db.close()
}

/** Write the snapshot's rows into the emptied tables in one transaction; returns the timed milliseconds. */
export const writeSqlite = (filename: string, snapshotFile: string, synchronous: "FULL" | "NORMAL"): number => {
  const db = new Database(filename)
  db.pragma(`synchronous = ${synchronous}`)
  const snap = new Database(snapshotFile, { readonly: true })
  db.exec("BEGIN IMMEDIATE")
  let ms = performance.now()
  for (const statement of searchIndexWhole.sqlite.suspend) db.exec(statement)
  ms = performance.now() - ms
  for (const name of names) {
    const columns = (db.prepare(`PRAGMA table_info(${name})`).all() as Array<{ name: string }>).map((c) => c.name)
    const insert = db.prepare(`INSERT INTO ${name} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`)
    const read = snap.prepare(`SELECT rowid, ${columns.join(", ")} FROM ${name} WHERE rowid > ? ORDER BY rowid LIMIT ${pageRows}`).raw()
    for (let cursor = 0;;) {
      const page = read.all(cursor) as Array<Array<unknown>>
      const start = performance.now()
      for (const row of page) insert.run(row.slice(1))
      ms += performance.now() - start
      if (page.length < pageRows) break
      cursor = page[page.length - 1]![0] as number
    }
  }
  const start = performance.now()
  for (const statement of searchIndexWhole.sqlite.resume) db.exec(statement)
  db.exec("COMMIT")
  ms += performance.now() - start
  snap.close()
  db.close()
  return ms
}

/** PostgreSQL: the snapshot is a schema beside the read model, each copy numbered in heap (insertion) order. */
export const snapshotPg = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql.unsafe("DROP SCHEMA IF EXISTS floor_snap CASCADE")
  yield* sql.unsafe("CREATE SCHEMA floor_snap")
  for (const name of names) {
    yield* sql.unsafe(`CREATE TABLE floor_snap.${name} AS SELECT row_number() OVER () AS floor_n, * FROM public.${name}`)
    yield* sql.unsafe(`CREATE INDEX ON floor_snap.${name} (floor_n)`)
  }
})

/** Empty the read model and reclaim its space (not timed), so rebuild and floor start alike. */
export const emptyPg = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql.unsafe(`TRUNCATE ${names.join(", ")}`)
})

/**
 * Write the snapshot's rows into the emptied tables in one transaction, a page per statement:
 * `INSERT … SELECT * FROM unnest($1::type[], …)`, one array parameter per column. Returns the
 * transaction's milliseconds less those spent reading the snapshot (so the inserts and the commit).
 */
export const writePg = Effect.gen(function*() {
  const sql = yield* SqlClient
  let reading = 0
  const start = performance.now()
  yield* sql.withTransaction(Effect.gen(function*() {
    for (const statement of searchIndexWhole.pg.suspend) yield* sql.unsafe(statement)
    for (const name of names) {
      const columns = yield* sql<{ column_name: string; udt_name: string }>`SELECT column_name, udt_name
        FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ${name} ORDER BY ordinal_position`
      const list = columns.map((c) => c.column_name).join(", ")
      const arrays = columns.map((c, i) => `$${i + 1}::${c.udt_name}[]`).join(", ")
      for (let cursor = 0;;) {
        const readStart = performance.now()
        const page = yield* sql.unsafe<Record<string, unknown>>(
          `SELECT floor_n, ${list} FROM floor_snap.${name} WHERE floor_n > $1 ORDER BY floor_n LIMIT ${pageRows}`,
          [cursor]
        )
        reading += performance.now() - readStart
        if (page.length > 0) {
          const params = columns.map((c) => page.map((row) => row[c.column_name]))
          yield* sql.unsafe(`INSERT INTO ${name} (${list}) SELECT * FROM unnest(${arrays})`, params)
        }
        if (page.length < pageRows) break
        cursor = Number(page[page.length - 1]!["floor_n"])
      }
    }
    for (const statement of searchIndexWhole.pg.resume) yield* sql.unsafe(statement)
  }))
  return performance.now() - start - reading
})

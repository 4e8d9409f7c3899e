/**
 * Writing one table's changed rows, with statements shaped for each backend. A rebuild writes a
 * page's rows (hundreds per table) at a time, so what a statement costs beyond its rows decides
 * its speed: on PostgreSQL a `VALUES` list of thousands of parameters is parsed and planned anew
 * for every page (measured at about 70 µs a row), where `unnest` over one array per column is one
 * short statement whatever the page holds; on SQLite, multi-row `VALUES` prepared once per shape.
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import type { StoreError } from "../EventStore.js"
import { shapedChunks, sizesFor } from "../internal/Shapes.js"
import type { Row, TableName } from "./Tables.js"

/** One table's changes in a batch: rows to delete (as stored), to insert, and to replace. */
export interface TableChanges {
  readonly table: TableName
  readonly keys: ReadonlyArray<string>
  readonly gone: ReadonlyArray<Row>
  readonly added: ReadonlyArray<Row>
  readonly changed: ReadonlyArray<Row>
  /** Whether a duplicate key among the added rows is a refusal (raised) rather than a replay (skipped). */
  readonly strict: boolean
}

export type Refuse = (table: TableName) => (error: SqlError) => Effect.Effect<never, StoreError | SqlError>

const quote = (name: string) => `"${name.replace(/"/g, "\"\"")}"`

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** What follows an insert: nothing (strict), skip a replayed row, or replace the stored row. */
const onConflict = (changes: TableChanges, columns: ReadonlyArray<string>, upsert: boolean) => {
  if (!upsert) return changes.strict ? "" : " ON CONFLICT DO NOTHING"
  const set = columns.filter((c) => !changes.keys.includes(c)).map((c) => `${quote(c)} = excluded.${quote(c)}`)
  return set.length === 0
    ? " ON CONFLICT DO NOTHING"
    : ` ON CONFLICT (${changes.keys.map(quote).join(", ")}) DO UPDATE SET ${set.join(", ")}`
}

/**
 * Column types by `table.column`, read from the catalogue the first time a table is written:
 * `unnest` needs each array's type, and the catalogue stays right when a migration adds a column.
 */
const pgTypes = new Map<string, string>()

const pgTypesOf = (sql: SqlClient, table: TableName, columns: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    if (columns.some((c) => !pgTypes.has(`${table}.${c}`))) {
      const rows = yield* sql.unsafe<{ name: string; type: string }>(
        `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
          WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`,
        [table]
      )
      for (const row of rows) pgTypes.set(`${table}.${row.name}`, row.type)
    }
    return columns.map((c) => pgTypes.get(`${table}.${c}`) ?? "text")
  })

/** Rows per PostgreSQL statement: a page's worth, bounded so one array stays a few megabytes. */
const pgRows = 10_000

const columnArrays = (rows: ReadonlyArray<Row>, columns: ReadonlyArray<string>) =>
  columns.map((c) => rows.map((row) => row[c] ?? null))

const writePg = (sql: SqlClient, changes: TableChanges, refuse: Refuse) =>
  Effect.gen(function*() {
    const { table, keys } = changes
    const name = quote(table)
    if (changes.gone.length > 0) {
      const types = yield* pgTypesOf(sql, table, keys)
      const target = keys.length === 1 ? quote(keys[0]!) : `(${keys.map(quote).join(", ")})`
      const list = keys.map((_, i) => `$${i + 1}::${types[i]}[]`).join(", ")
      for (const chunk of chunks(changes.gone, pgRows)) {
        yield* sql.unsafe(`DELETE FROM ${name} WHERE ${target} IN (SELECT * FROM unnest(${list}))`, columnArrays(chunk, keys))
      }
    }
    const sample = changes.added[0] ?? changes.changed[0]
    if (sample === undefined) return
    const columns = Object.keys(sample)
    const types = yield* pgTypesOf(sql, table, columns)
    const head = `INSERT INTO ${name} (${columns.map(quote).join(", ")}) SELECT * FROM unnest(${
      columns.map((_, i) => `$${i + 1}::${types[i]}[]`).join(", ")
    })`
    for (const chunk of chunks(changes.added, pgRows)) {
      const insert = sql.unsafe(head + onConflict(changes, columns, false), columnArrays(chunk, columns))
      yield* changes.strict ? insert.pipe(Effect.catchTag("SqlError", refuse(table))) : insert
    }
    for (const chunk of chunks(changes.changed, pgRows)) {
      yield* sql.unsafe(head + onConflict(changes, columns, true), columnArrays(chunk, columns))
    }
  })

/** SQLite's limit on a statement's parameters is 32,766; stay well under it. */
const sqliteParams = 8000

const sqliteStatements = new Map<string, string>()

const sqliteInsert = (table: TableName, columns: ReadonlyArray<string>, rows: number, tail: string) => {
  const id = `${table}\u0000${columns.join(",")}\u0000${rows}\u0000${tail}`
  let text = sqliteStatements.get(id)
  if (text === undefined) {
    const tuple = `(${columns.map(() => "?").join(", ")})`
    text = `INSERT INTO ${quote(table)} (${columns.map(quote).join(", ")}) VALUES ${Array(rows).fill(tuple).join(", ")}${tail}`
    sqliteStatements.set(id, text)
  }
  return text
}

const writeSqliteRows = (sql: SqlClient, changes: TableChanges, rows: ReadonlyArray<Row>, columns: ReadonlyArray<string>, tail: string) =>
  Effect.gen(function*() {
    let at = 0
    for (const size of sizesFor(rows.length, Math.max(1, Math.floor(sqliteParams / columns.length)))) {
      const params: Array<unknown> = []
      for (let r = at; r < at + size; r++) for (const c of columns) params.push(rows[r]![c] ?? null)
      at += size
      yield* sql.unsafe(sqliteInsert(changes.table, columns, size, tail), params)
    }
  })

const writeSqlite = (sql: SqlClient, changes: TableChanges, refuse: Refuse) =>
  Effect.gen(function*() {
    const { table, keys } = changes
    const match = `(${keys.map((k) => `${quote(k)} = ?`).join(" AND ")})`
    for (const chunk of shapedChunks(changes.gone, 128)) {
      yield* sql.unsafe(`DELETE FROM ${quote(table)} WHERE ${chunk.map(() => match).join(" OR ")}`, chunk.flatMap((row) => keys.map((k) => row[k])))
    }
    const sample = changes.added[0] ?? changes.changed[0]
    if (sample === undefined) return
    const columns = Object.keys(sample)
    const insert = writeSqliteRows(sql, changes, changes.added, columns, onConflict(changes, columns, false))
    yield* changes.strict ? insert.pipe(Effect.catchTag("SqlError", refuse(table))) : insert
    yield* writeSqliteRows(sql, changes, changes.changed, columns, onConflict(changes, columns, true))
  })

/** Write one table's changes: deletes first, then new rows, then replacements of stored rows. */
export const writeTable = (sql: SqlClient, changes: TableChanges, refuse: Refuse): Effect.Effect<void, StoreError | SqlError> =>
  sql.onDialectOrElse({ pg: () => writePg(sql, changes, refuse), orElse: () => writeSqlite(sql, changes, refuse) })

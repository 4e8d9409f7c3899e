/**
 * The rows one batch of events touches, held in memory: loaded once before the batch, changed by
 * the projector without a statement per event, and written back with a few multi-row statements.
 * The live path uses one per append and a rebuild one per page, so both run the same projection.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import type { StoreError } from "../EventStore.js"
import type { Refuse } from "./Flush.js"
import { writeTable } from "./Flush.js"
import type { ColumnOf, Row, RowOf, TableName } from "./Tables.js"
import { tables } from "./Tables.js"

export type { ColumnOf, Row, RowOf } from "./Tables.js"

/** Each table's primary-key columns, secondary lookups, and whether a duplicate new row is refused. */
const keyColumns = new Map<TableName, ReadonlyArray<string>>(tables.map((t) => [t.name, t.key.split(", ")]))
const indexed = new Map<TableName, ReadonlyArray<string>>(tables.map((t) => [t.name, t.indexed]))
const strict = new Set<TableName>(tables.filter((t) => t.strict).map((t) => t.name))

/** A key's values as one string. */
const joinKey = (values: ReadonlyArray<unknown>): string =>
  values.length === 1 ? String(values[0]) : values.map(String).join("\u0000")

/** A row's primary key as one string. */
export const keyOf = (table: TableName, row: Row): string => {
  const columns = keyColumns.get(table)!
  return columns.length === 1 ? String(row[columns[0]!]) : joinKey(columns.map((c) => row[c]))
}

class TableRows {
  /** Current row per key; `null` once deleted. Every key the batch may touch is here after loading. */
  readonly rows = new Map<string, Row | null>()
  /** Rows as they were in the database when loaded, by key. */
  readonly stored = new Map<string, Row>()
  readonly dirty = new Set<string>()
  readonly index = new Map<string, Map<unknown, Set<string>>>()
  constructor(readonly table: TableName) {
    for (const column of indexed.get(table) ?? []) this.index.set(column, new Map())
  }
  private unindex(key: string, row: Row) {
    for (const [column, byValue] of this.index) byValue.get(row[column])?.delete(key)
  }
  private reindex(key: string, row: Row) {
    for (const [column, byValue] of this.index) {
      const keys = byValue.get(row[column]) ?? new Set<string>()
      keys.add(key)
      byValue.set(row[column], keys)
    }
  }
  load(row: Row) {
    const key = keyOf(this.table, row)
    if (this.rows.has(key)) return
    this.rows.set(key, row)
    this.stored.set(key, row)
    this.reindex(key, row)
  }
  put(row: Row) {
    const key = keyOf(this.table, row)
    const old = this.rows.get(key)
    if (old) this.unindex(key, old)
    this.rows.set(key, row)
    this.reindex(key, row)
    this.dirty.add(key)
  }
  remove(key: string) {
    const old = this.rows.get(key)
    if (!old) return
    this.unindex(key, old)
    this.rows.set(key, null)
    this.dirty.add(key)
  }
}

/** The working set of one batch. */
export class Batch {
  private readonly byTable = new Map<TableName, TableRows>()
  private of(table: TableName): TableRows {
    let rows = this.byTable.get(table)
    if (!rows) this.byTable.set(table, rows = new TableRows(table))
    return rows
  }
  /** Record a row read from the database (a row already in the batch wins). */
  load(table: TableName, row: Row) {
    this.of(table).load(row)
  }
  get<T extends TableName>(table: T, ...key: ReadonlyArray<unknown>): RowOf<T> | undefined {
    return (this.of(table).rows.get(joinKey(key)) ?? undefined) as RowOf<T> | undefined
  }
  has(table: TableName, ...key: ReadonlyArray<unknown>): boolean {
    return this.of(table).rows.get(joinKey(key)) != null
  }
  /** Insert or replace a whole row. */
  put<T extends TableName>(table: T, row: RowOf<T>) {
    this.of(table).put(row)
  }
  /** Change some columns of an existing row. */
  update<T extends TableName>(table: T, row: RowOf<T>, changes: Partial<RowOf<T>>) {
    this.of(table).put({ ...row, ...changes })
  }
  delete<T extends TableName>(table: T, row: RowOf<T>) {
    this.of(table).remove(keyOf(table, row))
  }
  /** Current rows whose indexed `column` equals `value`, in key order. */
  where<T extends TableName>(table: T, column: ColumnOf<T>, value: unknown): Array<RowOf<T>> {
    const rows = this.of(table)
    const keys = [...(rows.index.get(column)?.get(value) ?? [])].sort()
    return keys.map((k) => rows.rows.get(k)).filter((r): r is Row => r != null) as Array<RowOf<T>>
  }
  /** The values `column` held, before or after, in the rows of `table` this batch changed (nulls left out). */
  touched<T extends TableName>(table: T, column: ColumnOf<T>): ReadonlyArray<unknown> {
    const rows = this.byTable.get(table)
    const values = new Set<unknown>()
    for (const key of rows?.dirty ?? []) {
      values.add(rows!.stored.get(key)?.[column])
      values.add(rows!.rows.get(key)?.[column])
    }
    values.delete(undefined)
    values.delete(null)
    return [...values]
  }
  /** Write every changed row: per table, deletes, then new rows, then upserts of stored rows. */
  flush(refuse: Refuse): Effect.Effect<void, StoreError | SqlError, SqlClient> {
    return Effect.gen(this, function*() {
      const sql = yield* SqlClient
      for (const table of tables) {
        const rows = this.byTable.get(table.name)
        if (!rows || rows.dirty.size === 0) continue
        const gone: Array<Row> = []
        const added: Array<Row> = []
        const changed: Array<Row> = []
        for (const key of rows.dirty) {
          const row = rows.rows.get(key)
          if (row == null) {
            const stored = rows.stored.get(key)
            if (stored) gone.push(stored)
          } else (rows.stored.has(key) ? changed : added).push(row)
        }
        yield* writeTable(sql, { table: table.name, keys: keyColumns.get(table.name)!, gone, added, changed, strict: strict.has(table.name) }, refuse)
      }
    })
  }
}

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
import type { Row, TableName } from "./Tables.js"
import { tables } from "./Tables.js"

export type { Row } from "./Tables.js"

/** Secondary lookups the projector makes (by these columns only). */
const indexed: Partial<Record<TableName, ReadonlyArray<string>>> = {
  notes: ["plan_id", "person_id"],
  people: ["merged_into"],
  note_sources: ["note_id"],
  note_directives: ["note_id"],
  note_erasures: ["note_id"],
  questions: ["plan_id", "user_id"],
  replies: ["user_id"],
  asks: ["user_id"],
  instructions: ["plan_id", "message_id"],
  message_media: ["message_id"],
  message_edits: ["message_id"],
  question_messages: ["question_id"],
  reminders: ["message_id"]
}

const keyColumns = Object.fromEntries(tables.map((t) => [t.name, t.key.split(", ")])) as unknown as Record<TableName, ReadonlyArray<string>>

/** Rows of tables where a duplicate key is a refused source, not a replay: inserted without `ON CONFLICT`. */
const strict = new Set<TableName>(["notes", "note_sources", "note_directives", "confirmations"])

/** A key's values as one string. */
const joinKey = (values: ReadonlyArray<unknown>): string =>
  values.length === 1 ? String(values[0]) : values.map(String).join("\u0000")

/** A row's primary key as one string. */
export const keyOf = (table: TableName, row: Row): string => {
  const columns = keyColumns[table]
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
    for (const column of indexed[table] ?? []) this.index.set(column, new Map())
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
  get(table: TableName, ...key: ReadonlyArray<unknown>): Row | undefined {
    return this.of(table).rows.get(joinKey(key)) ?? undefined
  }
  has(table: TableName, ...key: ReadonlyArray<unknown>): boolean {
    return this.get(table, ...key) !== undefined
  }
  /** Insert or replace a whole row. */
  put(table: TableName, row: Row) {
    this.of(table).put(row)
  }
  /** Change some columns of an existing row. */
  update(table: TableName, row: Row, changes: Row) {
    this.of(table).put({ ...row, ...changes })
  }
  delete(table: TableName, row: Row) {
    this.of(table).remove(keyOf(table, row))
  }
  /** Current rows whose indexed `column` equals `value`, in key order. */
  where(table: TableName, column: string, value: unknown): Array<Row> {
    const rows = this.of(table)
    const keys = [...(rows.index.get(column)?.get(value) ?? [])].sort()
    return keys.map((k) => rows.rows.get(k)).filter((r): r is Row => r != null)
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
        yield* writeTable(sql, { table: table.name, keys: keyColumns[table.name], gone, added, changed, strict: strict.has(table.name) }, refuse)
      }
    })
  }
}

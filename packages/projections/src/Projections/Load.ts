/** Read, in a few statements, every stored row a batch of events may read or change. */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"
import { padded } from "../internal/Shapes.js"
import type { Keys, Projected } from "./Projection.js"
import { projectionsOf } from "./Registry.js"
import type { Batch, Row } from "./Rows.js"
import type { ColumnOf, TableName } from "./Tables.js"

/** Values per `IN` list: far below every driver's parameter limit. */
const listSize = 4096

/** The keys a batch looks up, per table and column. */
class Wanted implements Keys {
  readonly byTable = new Map<TableName, Map<string, Set<unknown>>>()
  add<T extends TableName>(table: T, column: ColumnOf<T>, value: unknown) {
    let columns = this.byTable.get(table)
    if (!columns) this.byTable.set(table, columns = new Map())
    let values = columns.get(column)
    if (!values) columns.set(column, values = new Set())
    values.add(value)
  }
}

/** The rows the projections of each event name. */
const wantedBy = (events: ReadonlyArray<Projected>) => {
  const w = new Wanted()
  for (const { event, position } of events) {
    for (const projection of projectionsOf(event._tag)) projection.wants(event, position, w)
  }
  return w
}

const select = (batch: Batch, table: TableName, column: string, values: ReadonlyArray<unknown>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const out: Array<Row> = []
    for (let i = 0; i < values.length; i += listSize) {
      const rows = yield* sql<Row>`SELECT * FROM ${sql(table)} WHERE ${sql.in(column, padded(values.slice(i, i + listSize)))}`
      for (const row of rows) batch.load(table, row)
      out.push(...rows)
    }
    return out
  })

/**
 * Load into the batch the rows its events name, and whole notes (sources, directives, source
 * messages) that an edit re-derives or a superseded plan retires.
 */
export const load = (batch: Batch, events: ReadonlyArray<Projected>) =>
  Effect.gen(function*() {
    const w = wantedBy(events)
    const noteIds = new Set<unknown>()
    for (const [table, columns] of w.byTable) {
      for (const [column, values] of columns) {
        const rows = yield* select(batch, table, column, [...values])
        if (table === "note_sources" || (table === "notes" && column === "plan_id")) {
          for (const row of rows) noteIds.add(row["note_id"])
        }
      }
    }
    if (noteIds.size === 0) return
    const ids = [...noteIds]
    yield* select(batch, "notes", "note_id", ids)
    yield* select(batch, "note_directives", "note_id", ids)
    const sources = yield* select(batch, "note_sources", "note_id", ids)
    yield* select(batch, "messages", "message_id", sources.map((s) => s["message_id"]))
  })

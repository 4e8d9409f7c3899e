/**
 * Replay reports kept where the web pages show them, in the log's database (so every instance
 * sees them). Not a projection: a report is what one run of `verbatim replay` found, not a fact of
 * the log, so `rebuild` never touches this table.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { Context, type DateTime, Effect, Layer, Option, Schema } from "effect"
import type { StoreError } from "./EventStore.js"
import { toStoreError } from "./internal/Rows.js"
import { Millis } from "./Queries/Columns.js"

/** A kept report: when it was made, under which prompt, and its JSON as `verbatim replay --json` prints it. */
export interface StoredReport {
  readonly id: string
  readonly createdAt: DateTime.Utc
  readonly promptVersion: string
  readonly body: string
}

const Row = Schema.Struct({ report_id: Schema.String, created_at: Millis, prompt_version: Schema.String, body: Schema.String })
const toReport = (r: typeof Row.Type): StoredReport => ({ id: r.report_id, createdAt: r.created_at, promptVersion: r.prompt_version, body: r.body })

export class ReplayReports extends Context.Tag("@verbatim/projections/ReplayReports")<ReplayReports, {
  readonly publish: (report: { readonly id: string; readonly createdAt: number; readonly promptVersion: string; readonly body: string }) => Effect.Effect<void, StoreError>
  /** The newest reports first, at most `limit`, without their bodies' sessions read. */
  readonly list: (limit: number) => Effect.Effect<ReadonlyArray<StoredReport>, StoreError>
  readonly get: (id: string) => Effect.Effect<Option.Option<StoredReport>, StoreError>
}>() {
  static readonly layer = Layer.effect(
    ReplayReports,
    Effect.map(SqlClient, (sql) => {
      const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.mapError(effect, toStoreError)
      const newest = SqlSchema.findAll({
        Request: Schema.Number,
        Result: Row,
        execute: (n) =>
          sql`SELECT report_id, created_at, prompt_version, body FROM replay_reports
            ORDER BY created_at DESC, report_id DESC LIMIT ${n}`
      })
      const byId = SqlSchema.findOne({
        Request: Schema.String,
        Result: Row,
        execute: (id) => sql`SELECT report_id, created_at, prompt_version, body FROM replay_reports WHERE report_id = ${id}`
      })
      return ReplayReports.of({
        publish: (r) =>
          run(sql`INSERT INTO replay_reports ${sql.insert({ report_id: r.id, created_at: r.createdAt, prompt_version: r.promptVersion, body: r.body })}`),
        list: (limit) => run(Effect.map(newest(limit), (rows) => rows.map(toReport))),
        get: (id) => run(Effect.map(byId(id), Option.map(toReport)))
      })
    })
  )
}

/** The table (a migration). */
export const replayReportsTable = Effect.flatMap(SqlClient, (sql) =>
  sql`CREATE TABLE replay_reports (report_id TEXT PRIMARY KEY, created_at BIGINT NOT NULL, prompt_version TEXT NOT NULL, body TEXT NOT NULL)`)

/** The SQL that differs between SQLite and PostgreSQL: locking, event columns and the reader's order. */
import type { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import type { Checkpoint } from "../EventStore.js"

/** A row of the events table as the driver returns it (PostgreSQL returns BIGINT as text). */
export interface EventRow {
  readonly position: number | string
  readonly tx_id: number | string
  readonly stream: string
  readonly version: number | string
  readonly type: string
  readonly schema_version: number | string
  readonly payload: string
  readonly metadata: string
  readonly recorded_at: number | string
}

/** The columns a replay reads: what the projector uses and the reader's checkpoint. */
export type ReplayRow = Pick<EventRow, "position" | "tx_id" | "type" | "schema_version" | "payload">

export interface Dialect {
  readonly backend: "sqlite" | "pg"
  /** The first statement of an append's transaction: where a backend must take its write lock up front. */
  readonly beginWrite: (sql: SqlClient) => Effect.Effect<void, SqlError>
  /** Serialise writers of one stream until the transaction ends (SQLite has a single writer already). */
  readonly lockStream: (sql: SqlClient, stream: string) => Effect.Effect<void, SqlError>
  /** Committed events after a checkpoint (of `types` only, when given), in the order a catch-up reader must see them. */
  readonly readAfter: (
    sql: SqlClient,
    from: Checkpoint,
    limit: number,
    types?: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<EventRow>, SqlError>
  /** The newest checkpoint a catch-up reader can see now. */
  readonly head: (sql: SqlClient) => Effect.Effect<Checkpoint, SqlError>
  /** Keep writers out until the transaction ends, so a replay sees the whole log. */
  readonly lockLog: (sql: SqlClient) => Effect.Effect<void, SqlError>
  /** Every event after a checkpoint in reader order, for a replay holding `lockLog`. */
  readonly replayAfter: (sql: SqlClient, from: Checkpoint, limit: number) => Effect.Effect<ReadonlyArray<ReplayRow>, SqlError>
  /** Every committed event after a checkpoint in reader order, for a replay beside running writers (as `readAfter`). */
  readonly replaySettledAfter: (sql: SqlClient, from: Checkpoint, limit: number) => Effect.Effect<ReadonlyArray<ReplayRow>, SqlError>
}

const columns = "position, tx_id, stream, version, type, schema_version, payload, metadata, recorded_at"
const replayColumns = "position, tx_id, type, schema_version, payload"

/**
 * Take SQLite's write lock now, waiting up to the busy timeout while another process writes.
 * Taken later, at the first insert of a transaction that has read, it cannot wait: once another
 * process has committed since that read, the transaction fails at once (SQLITE_BUSY), so a second
 * process (the CLI beside a server) made appends fail. A write statement that matches no row takes
 * the lock and changes nothing.
 */
const sqliteWriteLock = (sql: SqlClient) => Effect.asVoid(sql`UPDATE events SET version = version WHERE 0`)

/** The filter on event types a reader asked for, or nothing. */
const ofTypes = (sql: SqlClient, types: ReadonlyArray<string> | undefined) =>
  types === undefined ? sql.literal("") : sql` AND type IN ${sql.in(types)}`

const sqliteReplay: Dialect["replayAfter"] = (sql, from, limit) =>
  sql<ReplayRow>`SELECT ${sql.literal(replayColumns)} FROM events WHERE position > ${from.position} ORDER BY position LIMIT ${limit}`

/** SQLite: one writer, so position order is commit order and `tx_id` is always 0. */
export const sqlite: Dialect = {
  backend: "sqlite",
  beginWrite: sqliteWriteLock,
  lockStream: () => Effect.void,
  readAfter: (sql, from, limit, types) =>
    sql<EventRow>`SELECT ${sql.literal(columns)} FROM events WHERE position > ${from.position}${ofTypes(sql, types)}
      ORDER BY position LIMIT ${limit}`,
  head: (sql) =>
    Effect.map(sql<{ p: number | string | null }>`SELECT MAX(position) AS p FROM events`, (rows) => ({
      txId: 0,
      position: Number(rows[0]?.p ?? 0)
    })),
  lockLog: sqliteWriteLock,
  replayAfter: sqliteReplay,
  // One writer at a time, and positions are taken in commit order: whatever is committed is settled.
  replaySettledAfter: sqliteReplay
}

/** PostgreSQL: rows after a checkpoint in (transaction, position) order, written by transactions older than every one still running. */
const pgSettledAfter = (sql: SqlClient, from: Checkpoint) =>
  sql`(tx_id, position) > (${from.txId}, ${from.position}) AND tx_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint`

/**
 * PostgreSQL: positions are taken before commit, so a reader only reads rows written by
 * transactions older than every transaction still running, ordered by (transaction, position).
 */
export const pg: Dialect = {
  backend: "pg",
  beginWrite: () => Effect.void,
  lockStream: (sql, stream) => Effect.asVoid(sql`SELECT pg_advisory_xact_lock(hashtext(${stream}))`),
  readAfter: (sql, from, limit, types) =>
    sql<EventRow>`SELECT ${sql.literal(columns)} FROM events WHERE ${pgSettledAfter(sql, from)}${ofTypes(sql, types)}
      ORDER BY tx_id, position LIMIT ${limit}`,
  // Every transaction that commits later has an id at or above the snapshot's xmin, so it sorts after this.
  head: (sql) =>
    Effect.map(
      sql<{ tx_id: number | string; position: number | string }>`SELECT tx_id, position FROM events
        WHERE tx_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint ORDER BY tx_id DESC, position DESC LIMIT 1`,
      (rows) => (rows[0] === undefined ? { txId: 0, position: 0 } : { txId: Number(rows[0].tx_id), position: Number(rows[0].position) })
    ),
  // Under this lock every writer of the log has finished, so no snapshot filter is needed.
  lockLog: (sql) => Effect.asVoid(sql`LOCK TABLE events IN EXCLUSIVE MODE`),
  replayAfter: (sql, from, limit) =>
    sql<ReplayRow>`SELECT ${sql.literal(replayColumns)} FROM events WHERE (tx_id, position) > (${from.txId}, ${from.position})
      ORDER BY tx_id, position LIMIT ${limit}`,
  replaySettledAfter: (sql, from, limit) =>
    sql<ReplayRow>`SELECT ${sql.literal(replayColumns)} FROM events WHERE ${pgSettledAfter(sql, from)}
      ORDER BY tx_id, position LIMIT ${limit}`
}

/**
 * Who may plan a session right now. A row per session with an expiry: an instance plans only
 * while it holds the row, so two instances on one PostgreSQL never call the model for the same
 * session at once; on SQLite (one process) it costs one statement.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import type { SessionId } from "@verbatim/domain/Ids"
import { Clock, Effect } from "effect"

/** The lease table; coordination state, not a projection, so `rebuild` leaves it alone. */
export const createLeaseTable = Effect.flatMap(SqlClient, (sql) =>
  sql`CREATE TABLE IF NOT EXISTS plan_leases (session_id TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at BIGINT NOT NULL)`)

/** Take the lease unless another owner holds an unexpired one; true when it is ours. */
export const acquire = (sessionId: SessionId, owner: string, ttlMillis: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const now = yield* Clock.currentTimeMillis
    yield* sql`INSERT INTO plan_leases (session_id, owner, expires_at) VALUES (${sessionId}, ${owner}, ${now + ttlMillis})
      ON CONFLICT (session_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
      WHERE plan_leases.expires_at < ${now} OR plan_leases.owner = excluded.owner`
    const rows = yield* sql<{ owner: string }>`SELECT owner FROM plan_leases WHERE session_id = ${sessionId}`
    return rows[0]?.owner === owner
  })

export const release = (sessionId: SessionId, owner: string) =>
  Effect.flatMap(SqlClient, (sql) => sql`DELETE FROM plan_leases WHERE session_id = ${sessionId} AND owner = ${owner}`)

/** Run `effect` holding the lease; `onBusy` when someone else holds it. */
export const withLease = <A, E, R, B>(
  sessionId: SessionId,
  owner: string,
  ttlMillis: number,
  effect: Effect.Effect<A, E, R>,
  onBusy: B
) =>
  Effect.acquireUseRelease(
    acquire(sessionId, owner, ttlMillis),
    (held): Effect.Effect<A | B, E, R> => (held ? effect : Effect.succeed(onBusy)),
    (held) => (held ? Effect.asVoid(Effect.orDie(release(sessionId, owner))) : Effect.void)
  )

/**
 * Who may work on something right now (plan a session, send a reply). A row per key with an
 * expiry: an instance acts only while it holds the row, so two instances on one PostgreSQL never
 * plan the same session or send the same reply at once; on SQLite (one process) it costs one
 * statement. The `leases` table is created by the store's migrations.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Clock, Effect } from "effect"

/** Take the lease unless another owner holds an unexpired one; true when it is ours. */
export const acquire = (key: string, owner: string, ttlMillis: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const now = yield* Clock.currentTimeMillis
    yield* sql`INSERT INTO leases (lease_key, owner, expires_at) VALUES (${key}, ${owner}, ${now + ttlMillis})
      ON CONFLICT (lease_key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
      WHERE leases.expires_at < ${now} OR leases.owner = excluded.owner`
    const rows = yield* sql<{ owner: string }>`SELECT owner FROM leases WHERE lease_key = ${key}`
    return rows[0]?.owner === owner
  })

export const release = (key: string, owner: string) =>
  Effect.flatMap(SqlClient, (sql) => sql`DELETE FROM leases WHERE lease_key = ${key} AND owner = ${owner}`)

/** Run `effect` holding the lease; `onBusy` when someone else holds it. */
export const withLease = <A, E, R, B>(
  key: string,
  owner: string,
  ttlMillis: number,
  effect: Effect.Effect<A, E, R>,
  onBusy: B
) =>
  Effect.acquireUseRelease(
    acquire(key, owner, ttlMillis),
    (held): Effect.Effect<A | B, E, R> => (held ? effect : Effect.succeed(onBusy)),
    (held) => (held ? Effect.asVoid(Effect.orDie(release(key, owner))) : Effect.void)
  )

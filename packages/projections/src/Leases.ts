/**
 * Who may work on something right now (plan a session, send a reply). A row per key with an
 * expiry: an instance acts only while it holds the row, so two instances on one PostgreSQL never
 * plan the same session or send the same reply at once. A lease is short and its holder renews it
 * while it works, so a holder that dies (kill -9) lets go within one TTL instead of blocking the
 * key for as long as the longest job might take. The `leases` table is created by the store's
 * migrations.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { Clock, Context, DateTime, Duration, Effect, Fiber, Layer, Option, Random, Schema } from "effect"
import { hostname } from "node:os"
import type { StoreError } from "./EventStore.js"
import { toStoreError } from "./internal/Rows.js"
import { Millis } from "./Queries/Columns.js"

/** Who holds a lease and since when. */
export interface LeaseHolder {
  readonly owner: string
  readonly since: DateTime.Utc
}

export interface LeasesOptions {
  /** How long a lease outlives its last renewal; the holder renews every third of it. Default 15 s. */
  readonly ttl?: Duration.DurationInput
  /** Names this process in owner ids (default `hostname:pid`); each lease adds a random suffix. */
  readonly processId?: string
}

/** The default TTL: a dead holder blocks its key at most this long. */
export const defaultTtl = Duration.seconds(15)

/**
 * Take the lease for `ttlMillis` unless another owner holds an unexpired one; true when it is
 * ours. One statement and no renewal: `withLease` is the way to hold a lease while working.
 */
export const acquire = (key: string, owner: string, ttlMillis: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const now = yield* Clock.currentTimeMillis
    yield* sql`INSERT INTO leases (lease_key, owner, expires_at, acquired_at)
      VALUES (${key}, ${owner}, ${now + ttlMillis}, ${now})
      ON CONFLICT (lease_key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at,
        acquired_at = excluded.acquired_at
      WHERE leases.expires_at < ${now} OR leases.owner = excluded.owner`
    return Option.contains(yield* ownerOf(key), owner)
  })

const ownerOf = (key: string) =>
  SqlSchema.findOne({
    Request: Schema.String,
    Result: Schema.Struct({ owner: Schema.String }),
    execute: (k) => Effect.flatMap(SqlClient, (sql) => sql`SELECT owner FROM leases WHERE lease_key = ${k}`)
  })(key).pipe(Effect.map(Option.map((row) => row.owner)))

const HolderRow = Schema.Struct({ owner: Schema.String, acquired_at: Millis })

const holderOf = (key: string, now: number) =>
  Effect.flatMap(SqlClient, (sql) =>
    SqlSchema.findOne({
      Request: Schema.String,
      Result: HolderRow,
      execute: (k) => sql`SELECT owner, acquired_at FROM leases WHERE lease_key = ${k} AND expires_at >= ${now}`
    })(key))

export class Leases extends Context.Tag("@verbatim/projections/Leases")<Leases, {
  /**
   * Run `effect` holding the lease on `key`, renewed every TTL/3 while it runs and released when
   * it ends however it ends; `onBusy` without running it when another owner holds the lease.
   */
  readonly withLease: <A, E, R, B>(
    key: string,
    effect: Effect.Effect<A, E, R>,
    onBusy: B
  ) => Effect.Effect<A | B, E | StoreError, R>
  /** Who holds an unexpired lease on `key`, if anyone. */
  readonly holder: (key: string) => Effect.Effect<Option.Option<LeaseHolder>, StoreError>
}>() {
  static readonly make = (options: LeasesOptions = {}) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const ttlMillis = Duration.toMillis(options.ttl ?? defaultTtl)
      const processId = options.processId ?? `${hostname()}:${process.pid}`
      const onDb = <A, E>(effect: Effect.Effect<A, E, SqlClient>) =>
        effect.pipe(Effect.provideService(SqlClient, sql), Effect.mapError(toStoreError))
      const newOwner = Effect.map(
        Random.nextIntBetween(0, 0x10000),
        (n) => `${processId}:${n.toString(16).padStart(4, "0")}`
      )

      const renew = (key: string, owner: string) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          yield* sql`UPDATE leases SET expires_at = ${now + ttlMillis} WHERE lease_key = ${key} AND owner = ${owner}`
          const current = yield* ownerOf(key)
          if (!Option.contains(current, owner)) {
            yield* Effect.logWarning("lease taken by another owner while its holder works").pipe(
              Effect.annotateLogs({ key, owner, holder: Option.getOrElse(current, () => "nobody") })
            )
          }
        }).pipe(
          Effect.provideService(SqlClient, sql),
          Effect.catchAll((error) =>
            Effect.logWarning("lease renewal failed", error).pipe(Effect.annotateLogs({ key, owner }))
          )
        )

      const heartbeat = (key: string, owner: string) =>
        Effect.forever(Effect.zipRight(Effect.sleep(Duration.millis(ttlMillis / 3)), renew(key, owner)))

      // A release that fails leaves the row to expire within one TTL: not worth failing the work for.
      const release = (key: string, owner: string) =>
        sql`DELETE FROM leases WHERE lease_key = ${key} AND owner = ${owner}`.pipe(
          Effect.catchAll((error) => Effect.logWarning("lease release failed", error).pipe(Effect.annotateLogs({ key, owner })))
        )

      const withLease = <A, E, R, B>(key: string, effect: Effect.Effect<A, E, R>, onBusy: B) =>
        Effect.acquireUseRelease(
          Effect.flatMap(newOwner, (owner) =>
            Effect.map(onDb(acquire(key, owner, ttlMillis)), (held) => (held ? Option.some(owner) : Option.none()))),
          Option.match({
            onNone: (): Effect.Effect<A | B, E, R> => Effect.succeed(onBusy),
            onSome: (owner) =>
              Effect.flatMap(
                Effect.fork(heartbeat(key, owner)),
                (beat) => Effect.ensuring(effect, Fiber.interrupt(beat))
              )
          }),
          Option.match({ onNone: () => Effect.void, onSome: (owner) => Effect.asVoid(release(key, owner)) })
        )

      const holder = (key: string) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          const row = yield* onDb(holderOf(key, now))
          return Option.map(row, (r): LeaseHolder => ({ owner: r.owner, since: r.acquired_at }))
        })

      return Leases.of({ withLease, holder })
    })

  /** Leases of the default TTL over the SqlClient in context. */
  static readonly layer: Layer.Layer<Leases, never, SqlClient> = Layer.effect(Leases, Leases.make())

  /** Leases with another TTL or process id (tests). */
  static readonly layerTest = (options: LeasesOptions): Layer.Layer<Leases, never, SqlClient> =>
    Layer.effect(Leases, Leases.make(options))
}

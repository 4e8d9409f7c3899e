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
import { Clock, Config, type ConfigError, Context, DateTime, Duration, Effect, Fiber, Layer, Option, Random, Schema } from "effect"
import { hostname } from "node:os"
import { Committer } from "./Commit.js"
import type { StoreError } from "./EventStore.js"
import { runOn, toStoreError } from "./internal/Rows.js"
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
 * How many holders in a row may die holding a lease (see `withLeaseLapses`) before the work under
 * it stops being tried: planning, a reading or a send that keeps killing the process is parked.
 */
export const maxCrashes = 3

/**
 * The statement that takes the lease until `now + ttlMillis` unless another owner holds an
 * unexpired one; when it is ours, how many holders in a row before us let it lapse: a holder
 * releases its lease however its work ends, so one whose row is still there expired died holding
 * it (kill -9, out of memory). The upsert answers the row only when it wrote it.
 */
const takeAt = (key: string, owner: string, ttlMillis: number, now: number) =>
  Effect.map(
    Effect.flatMap(SqlClient, (sql) =>
      sql<{ lapses: number | string }>`INSERT INTO leases (lease_key, owner, expires_at, acquired_at, lapses)
        VALUES (${key}, ${owner}, ${now + ttlMillis}, ${now}, 0)
        ON CONFLICT (lease_key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at,
          acquired_at = excluded.acquired_at,
          lapses = CASE WHEN leases.owner = excluded.owner THEN leases.lapses ELSE leases.lapses + 1 END
        WHERE leases.expires_at < ${now} OR leases.owner = excluded.owner
        RETURNING lapses`),
    (rows) => Option.map(Option.fromNullable(rows[0]), (row) => Number(row.lapses))
  )

/**
 * Take the lease as `withLease` does, at the clock's time: one statement and no renewal;
 * `withLease` is the way to hold a lease while working.
 */
export const take = (key: string, owner: string, ttlMillis: number) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) => takeAt(key, owner, ttlMillis, now))

/** Take the lease as `take` does; true when it is ours. */
export const acquire = (key: string, owner: string, ttlMillis: number) => Effect.map(take(key, owner, ttlMillis), Option.isSome)

const rowOf = (key: string) =>
  SqlSchema.findOne({
    Request: Schema.String,
    Result: Schema.Struct({ owner: Schema.String, lapses: Schema.Number }),
    execute: (k) => Effect.flatMap(SqlClient, (sql) => sql`SELECT owner, lapses FROM leases WHERE lease_key = ${k}`)
  })(key)

const ownerOf = (key: string) => Effect.map(rowOf(key), Option.map((row) => row.owner))

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
  /**
   * As `withLease`, with how many holders in a row before this one died holding the lease (0
   * after one released it): work that keeps killing the process can stop being tried.
   */
  readonly withLeaseLapses: <A, E, R, B>(
    key: string,
    effect: (lapses: number) => Effect.Effect<A, E, R>,
    onBusy: B
  ) => Effect.Effect<A | B, E | StoreError, R>
  /** Who holds an unexpired lease on `key`, if anyone. */
  readonly holder: (key: string) => Effect.Effect<Option.Option<LeaseHolder>, StoreError>
}>() {
  static readonly make = (options: LeasesOptions = {}) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const committer = yield* Committer
      const ttlMillis = Duration.toMillis(options.ttl ?? defaultTtl)
      const processId = options.processId ?? `${hostname()}:${process.pid}`
      const onDb = runOn(sql)
      const newOwner = Effect.map(
        Random.nextIntBetween(0, 0x10000),
        (n) => `${processId}:${n.toString(16).padStart(4, "0")}`
      )

      // A take is a statement of its own, committed before the work starts (it is the record that
      // an attempt started): it is on the way to every reply, and waiting for the group commit's
      // next batch made replies slower under load (BENCHMARKS.md, "The pipeline"). Renewals and
      // releases are off that way, so they ride in the group commit without a flush of their own.
      const renew = (key: string, owner: string) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          const current = yield* committer.alongside(
            key,
            Effect.zipRight(sql`UPDATE leases SET expires_at = ${now + ttlMillis} WHERE lease_key = ${key} AND owner = ${owner}`, ownerOf(key)).pipe(
              Effect.mapError(toStoreError)
            )
          )
          if (!Option.contains(current, owner)) {
            yield* Effect.logWarning("lease taken by another owner while its holder works").pipe(
              Effect.annotateLogs({ key, owner, holder: Option.getOrElse(current, () => "nobody") })
            )
          }
        }).pipe(
          Effect.catchAll((error) =>
            Effect.logWarning("lease renewal failed", error).pipe(Effect.annotateLogs({ key, owner }))
          )
        )

      const heartbeat = (key: string, owner: string) =>
        Effect.forever(Effect.zipRight(Effect.sleep(Duration.millis(ttlMillis / 3)), renew(key, owner)))

      // A release that fails leaves the row to expire within one TTL: not worth failing the work for.
      const release = (key: string, owner: string) =>
        committer.alongside(key, sql`DELETE FROM leases WHERE lease_key = ${key} AND owner = ${owner}`).pipe(
          Effect.catchAll((error) => Effect.logWarning("lease release failed", error).pipe(Effect.annotateLogs({ key, owner })))
        )

      const withLeaseLapses = <A, E, R, B>(key: string, effect: (lapses: number) => Effect.Effect<A, E, R>, onBusy: B) =>
        Effect.acquireUseRelease(
          Effect.gen(function*() {
            const owner = yield* newOwner
            const now = yield* Clock.currentTimeMillis
            const taken = yield* onDb(takeAt(key, owner, ttlMillis, now))
            return Option.map(taken, (lapses) => ({ owner, lapses }))
          }),
          Option.match({
            onNone: (): Effect.Effect<A | B, E, R> => Effect.succeed(onBusy),
            onSome: ({ lapses, owner }) =>
              Effect.flatMap(
                Effect.fork(heartbeat(key, owner)),
                (beat) => Effect.ensuring(effect(lapses), Fiber.interrupt(beat))
              )
          }),
          Option.match({ onNone: () => Effect.void, onSome: ({ owner }) => Effect.asVoid(release(key, owner)) })
        )

      const withLease = <A, E, R, B>(key: string, effect: Effect.Effect<A, E, R>, onBusy: B) => withLeaseLapses(key, () => effect, onBusy)

      const holder = (key: string) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          const row = yield* onDb(holderOf(key, now))
          return Option.map(row, (r): LeaseHolder => ({ owner: r.owner, since: r.acquired_at }))
        })

      return Leases.of({ withLease, withLeaseLapses, holder })
    })

  /** Leases over the SqlClient in context, of the TTL `VERBATIM_LEASE_TTL_SECONDS` sets (15 unless set). */
  static readonly layer: Layer.Layer<Leases, ConfigError.ConfigError, SqlClient | Committer> = Layer.unwrapEffect(
    Config.integer("VERBATIM_LEASE_TTL_SECONDS").pipe(
      Config.validate({ message: "must be a whole number of seconds above 0", validation: (n) => n > 0 }),
      Config.withDefault(Duration.toSeconds(defaultTtl)),
      Effect.map((seconds) => Layer.effect(Leases, Leases.make({ ttl: Duration.seconds(seconds) })))
    )
  )

  /** Leases with another TTL or process id (tests). */
  static readonly layerTest = (options: LeasesOptions): Layer.Layer<Leases, never, SqlClient | Committer> =>
    Layer.effect(Leases, Leases.make(options))
}

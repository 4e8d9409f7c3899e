/**
 * Database layers for tests: a store on a temp SQLite file, and a store on PostgreSQL — a
 * fresh database on the real server named by `VERBATIM_TEST_DATABASE_URL`, or PGlite
 * in-process behind its socket server when that is unset.
 */
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import * as PgClient from "@effect/sql-pg/PgClient"
import { SqlClient } from "@effect/sql/SqlClient"
import * as Store from "@verbatim/projections/Store"
import { Config, Effect, Layer, Option, Redacted } from "effect"
import { join } from "node:path"
import { tempDir } from "./TempDir.js"

/** The real PostgreSQL server tests may use, if configured. */
export const testDatabaseUrl = Config.option(Config.redacted("VERBATIM_TEST_DATABASE_URL"))

/** Which PostgreSQL the `pg` layers use, for printing next to a skip. */
export const pgTarget = Effect.map(testDatabaseUrl, Option.match({
  onNone: () => "PGlite (in-process)",
  onSome: () => "PostgreSQL (VERBATIM_TEST_DATABASE_URL)"
}))

/** A store on a fresh SQLite file in a temp directory, removed afterwards. */
export const sqlite = (options: { readonly synchronous?: Store.SqliteSynchronous } = {}) =>
  Layer.unwrapScoped(
    Effect.map(
      tempDir("verbatim-store-"),
      (dir) => Store.layerSqlite({ filename: join(dir, "events.db"), synchronous: options.synchronous ?? "NORMAL" })
    )
  )

const withDatabase = (url: string, database: string) => {
  const parsed = new URL(url)
  parsed.pathname = `/${database}`
  return parsed.toString()
}

/** Run one statement on the server's maintenance connection. */
const admin = (url: Redacted.Redacted, statement: string) =>
  Effect.provide(Effect.flatMap(SqlClient, (sql) => sql.unsafe(statement)), PgClient.layer({ url, maxConnections: 1 }))

/** The URL of a fresh database on the real server, dropped when the scope closes. */
const freshDatabase = (url: Redacted.Redacted) =>
  Effect.gen(function*() {
    const name = `verbatim_t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
    yield* Effect.acquireRelease(
      admin(url, `CREATE DATABASE ${name}`),
      () => Effect.ignore(admin(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
    )
    return withDatabase(Redacted.value(url), name)
  })

/** A fresh database on the real server, dropped once every connection to it has closed. */
const realPg = (url: Redacted.Redacted) =>
  Layer.unwrapScoped(Effect.map(freshDatabase(url), (database) => Store.layerPg(database, { maxConnections: 20 })))

/** A fresh database on the real server for a test that opens several stores on it (instances); `None` without a server. */
export const realPgDatabase = Effect.flatMap(testDatabaseUrl, Option.match({
  onNone: () => Effect.succeed(Option.none<string>()),
  onSome: (url) => Effect.map(freshDatabase(url), Option.some)
}))

/** PGlite behind its socket server; the pool takes the one connection the server accepts. */
const pglite = Layer.unwrapScoped(
  Effect.gen(function*() {
    const server = yield* Effect.acquireRelease(
      Effect.promise(async () => {
        const db = await PGlite.create()
        const server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1", maxConnections: 1 })
        await server.start()
        return { db, server }
      }),
      ({ db, server }) => Effect.promise(async () => {
        await server.stop()
        await db.close()
      })
    )
    return Store.layerPg(`postgres://postgres@${server.server.getServerConn()}/postgres`, { maxConnections: 1, acrossInstances: false })
  })
)

/** A store on PostgreSQL: the configured real server, or PGlite when none is configured. */
export const pg = Layer.unwrapEffect(
  Effect.map(testDatabaseUrl, Option.match({ onNone: () => pglite, onSome: realPg }))
)

/** A store on the real PostgreSQL server only; `None` when `VERBATIM_TEST_DATABASE_URL` is unset. */
export const realPgOnly = Effect.map(testDatabaseUrl, Option.map(realPg))

/**
 * Rebuilding the read models on PostgreSQL while the log goes on taking appends: a blue/green
 * rebuild, as Marten's. The tables are made again, empty, in a schema of their own beside the live
 * ones, with the same columns, constraints, indexes and index names. The log is replayed into them
 * a page at a time, each page in a transaction whose `search_path` puts that schema first, so the
 * projector's statements (which name their tables unqualified) read and write the copies while
 * the live path writes the live tables. Then the search index is built whole and its trigger made,
 * the events appended meanwhile are replayed, and one short transaction that keeps appends out
 * replays the last few and swaps the tables. Readers wait only for the swap; their prepared
 * statements are planned again against the new tables, as PostgreSQL does after any DDL.
 *
 * A rebuild that fails or is stopped leaves the live tables as they were (the next one drops its
 * leftovers first), and a second rebuild started meanwhile is refused.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import { start, StoreError } from "../EventStore.js"
import * as Dialects from "../internal/Dialect.js"
import { sqlError } from "../internal/Rows.js"
import { pgSearchIndexBuilt } from "../Queries/SearchIndex.js"
import type { RebuildOptions, ReplaySource } from "./Rebuild.js"
import { replayPages } from "./Rebuild.js"
import { tables } from "./Tables.js"

/** The schema the tables are rebuilt in, and the one the live tables move to at the swap, to be dropped. */
export const shadowSchema = "verbatim_rebuild"
const retiredSchema = "verbatim_retired"

/** Catch-up passes go on until one replays at most this many events, which the swap's lock then waits on. */
const lockedAtMost = 200
const maxPasses = 8

/** Every table the swap replaces: the read models and the search index over messages. */
const swapped: ReadonlyArray<string> = [...tables.map((table) => table.name), "message_search"]

const ident = (name: string) => `"${name.replace(/"/g, "\"\"")}"`

/** An index of a live table, and the constraint it carries if it is one. */
interface IndexRow {
  readonly table: string
  readonly index: string
  readonly def: string
  readonly constraint: string | null
  readonly kind: string | null
}

/** Hold the rebuild's own lock (a session lock on a reserved connection) for the scope, or fail at once. */
const exclusive = (sql: SqlClient) =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      const connection = yield* sql.reserve
      const [row] = yield* connection.execute(`SELECT pg_try_advisory_lock(hashtext('${shadowSchema}')) AS held`, [], undefined)
      if (row?.held !== true) {
        return yield* new StoreError({ reason: "sql", message: "another rebuild is running on this database; wait for it to finish" })
      }
      return connection
    }),
    (connection) => Effect.ignore(connection.execute(`SELECT pg_advisory_unlock(hashtext('${shadowSchema}'))`, [], undefined))
  )

/** Drop what a rebuild that failed or was stopped left, and make each table again, empty, in the shadow schema. */
const prepare = (sql: SqlClient, live: string) =>
  sql.withTransaction(Effect.gen(function*() {
    yield* sql.unsafe(`DROP SCHEMA IF EXISTS ${shadowSchema} CASCADE`)
    yield* sql.unsafe(`DROP SCHEMA IF EXISTS ${retiredSchema} CASCADE`)
    yield* sql.unsafe(`CREATE SCHEMA ${shadowSchema}`)
    for (const table of swapped) {
      yield* sql.unsafe(`CREATE TABLE ${shadowSchema}.${ident(table)} (LIKE ${ident(live)}.${ident(table)} INCLUDING ALL EXCLUDING INDEXES)`)
    }
    const indexes = yield* sql<IndexRow>`SELECT t.relname AS table, i.relname AS index, pg_get_indexdef(i.oid) AS def,
        c.conname AS constraint, c.contype AS kind
      FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
        LEFT JOIN pg_constraint c ON c.conindid = i.oid AND c.conrelid = t.oid AND c.contype IN ('p', 'u')
      WHERE t.relnamespace = ${live}::regnamespace AND t.relname IN ${sql.in(swapped)}
      ORDER BY t.relname, i.relname`
    for (const index of indexes) {
      if (index.index === pgSearchIndexBuilt.deferred) continue
      const table = `${shadowSchema}.${ident(index.table)}`
      // An index is made in its table's schema, so the copy keeps the live index's name.
      yield* sql.unsafe(index.def.replace(/ ON \S+ USING /, ` ON ${table} USING `))
      if (index.constraint !== null) {
        const kind = index.kind === "p" ? "PRIMARY KEY" : "UNIQUE"
        yield* sql.unsafe(`ALTER TABLE ${table} ADD CONSTRAINT ${ident(index.constraint)} ${kind} USING INDEX ${ident(index.index)}`)
      }
    }
  }))

/** Point unqualified table names at the shadow schema for the rest of the transaction. */
const toShadow = (sql: SqlClient, live: string) => sql.unsafe(`SET LOCAL search_path TO ${shadowSchema}, ${ident(live)}`)

/** Move each live table out and its rebuilt copy in, then drop the old ones. */
const swap = (sql: SqlClient, live: string) =>
  Effect.gen(function*() {
    yield* sql.unsafe(`CREATE SCHEMA ${retiredSchema}`)
    for (const table of swapped) {
      yield* sql.unsafe(`ALTER TABLE ${ident(live)}.${ident(table)} SET SCHEMA ${retiredSchema}`)
      yield* sql.unsafe(`ALTER TABLE ${shadowSchema}.${ident(table)} SET SCHEMA ${ident(live)}`)
    }
    yield* sql.unsafe(`DROP SCHEMA ${retiredSchema} CASCADE`)
    yield* sql.unsafe(`DROP SCHEMA ${shadowSchema}`)
  })

/**
 * Rebuild every read model beside the live ones and swap them in (PostgreSQL). Returns how many
 * events were applied, those appended while it ran included.
 */
export const rebuildOnline = Effect.fn("Projections.rebuildOnline")(function*(options: RebuildOptions = {}) {
  const sql = yield* SqlClient
  yield* exclusive(sql)
  const [where] = yield* sql<{ live: string }>`SELECT current_schema() AS live`
  const live = where?.live ?? "public"
  yield* prepare(sql, live)
  const inShadow = <A, E>(effect: Effect.Effect<A, E, SqlClient>): Effect.Effect<A, E | SqlError, SqlClient> =>
    sql.withTransaction(Effect.zipRight(toShadow(sql, live), effect))
  const settled: ReplaySource = { read: (from, limit) => Dialects.pg.replaySettledAfter(sql, from, limit), within: inShadow }
  const bulk = yield* replayPages(start, settled, options)
  yield* inShadow(Effect.forEach(pgSearchIndexBuilt.build, (statement) => sql.unsafe(statement), { discard: true }))
  // Each pass replays what was appended during the one before, so each is shorter; the last,
  // under the lock, holds appends back only for the few left. Appends that outpace the passes
  // still meet the lock after a few.
  let caught = yield* replayPages(bulk.cursor, settled, options)
  let applied = bulk.count + caught.count
  for (let pass = 1; caught.count > lockedAtMost && pass < maxPasses; pass++) {
    caught = yield* replayPages(caught.cursor, settled, options)
    applied += caught.count
  }
  const last = yield* sql.withTransaction(Effect.gen(function*() {
    yield* Dialects.pg.lockLog(sql)
    yield* toShadow(sql, live)
    const rest = yield* replayPages(caught.cursor, {
      read: (from, limit) => Dialects.pg.replayAfter(sql, from, limit),
      within: (effect) => effect
    }, options)
    yield* swap(sql, live)
    return rest
  }))
  // The new tables have no statistics yet, and the planner's choice of index depends on them.
  for (const table of swapped) yield* sql.unsafe(`ANALYZE ${ident(table)}`)
  return applied + last.count
}, (effect) =>
  effect.pipe(
    Effect.scoped,
    Effect.catchTag("SqlError", (e) => Effect.fail(sqlError(e))),
    // A span per statement of a million-event replay costs more than it tells.
    Effect.withTracerEnabled(false)
  ))

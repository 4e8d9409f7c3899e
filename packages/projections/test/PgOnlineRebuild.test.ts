/**
 * A rebuild beside the live tables on a real PostgreSQL server: appends go on while it runs and
 * land in the tables it swaps in, the tables it swaps in are those a rebuild under the log's lock
 * writes, and one stopped part way leaves the live tables as they were.
 */
import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql/SqlClient"
import { EventStore } from "@verbatim/projections/EventStore"
import { rebuildOnline, shadowSchema } from "@verbatim/projections/Projections/OnlineRebuild"
import { dump, rebuild } from "@verbatim/projections/Projections/Rebuild"
import * as Database from "@verbatim/testkit/Database"
import * as G from "@verbatim/testkit/Given"
import { Effect, Exit, Fiber, Option } from "effect"
import { scenario } from "./Scenario.js"

const real = Effect.runSync(Database.realPgOnly)

/** A session of two messages, appended through the store as the live path appends. */
const captured = (k: number) =>
  G.given([G.sessionStream(`during-${k}`), [
    G.sessionOpened(`during-${k}`),
    G.messageReceived(`during-${k}`, 1, `Captured while the rebuild ran, number ${k}: Zoë’s café`)
  ]])

/** The indexes, constraints and triggers of the live schema, by name with their definitions. */
const catalogue = Effect.flatMap(SqlClient, (sql) =>
  Effect.all({
    indexes: sql<{ name: string; def: string }>`SELECT indexname AS name, indexdef AS def FROM pg_indexes
      WHERE schemaname = current_schema() ORDER BY indexname`,
    constraints: sql<{ name: string; def: string }>`SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE connamespace = current_schema()::regnamespace ORDER BY conname`,
    triggers: sql<{ name: string; def: string }>`SELECT tgname AS name, pg_get_triggerdef(t.oid) AS def FROM pg_trigger t
      JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal
      ORDER BY tgname`,
    schemas: sql<{ name: string }>`SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'verbatim_%' ORDER BY nspname`
  }))

const found = (word: string) =>
  Effect.flatMap(SqlClient, (sql) =>
    Effect.map(sql<{ text: string }>`SELECT m.text FROM message_search s JOIN messages m USING (message_id)
      WHERE s.tsv @@ to_tsquery('simple', ${word}) ORDER BY m.text`, (rows) => rows.map((row) => row.text)))

if (Option.isNone(real)) console.log("skipped: a rebuild beside running appends needs a real PostgreSQL server; set VERBATIM_TEST_DATABASE_URL")

describe.skipIf(Option.isNone(real))("rebuilding beside the live tables on PostgreSQL", () => {
  const layer = () => Option.getOrThrow(real)

  it.effect("appends made while it runs land in the tables it swaps in, which a locked rebuild writes again byte for byte", () =>
    Effect.gen(function*() {
      yield* G.given(...scenario(30))
      const before = yield* catalogue
      const context = yield* Effect.context<EventStore>()
      const appends: Array<Fiber.RuntimeFiber<unknown, unknown>> = []
      // Each page starts an append: they land while the shadow tables fill, while it catches up,
      // and (the last) against the lock of the swap, to be written once it has let go.
      const replayed = yield* rebuildOnline({
        pageSize: 50,
        onPage: () =>
          Effect.asVoid(Effect.tap(Effect.fork(Effect.provide(captured(appends.length), context)), (fiber) => appends.push(fiber)))
      })
      yield* Fiber.joinAll(appends)
      const store = yield* EventStore
      expect(replayed).toBeGreaterThan(300)
      expect(appends.length).toBeGreaterThan(6)
      const live = yield* dump
      expect(live.messages.filter((m) => String(m["session_id"]).startsWith("during-")).map((m) => m["text"]).sort()).toEqual(
        appends.map((_, k) => `Captured while the rebuild ran, number ${k}: Zoë’s café`).sort()
      )
      expect(yield* catalogue).toEqual(before)
      // The search index's trigger is on the swapped-in table: a message appended now is found.
      yield* G.given([G.sessionStream("after"), [G.sessionOpened("after"), G.messageReceived("after", 1, "Ximena's quinces")]])
      expect(yield* found("quinces")).toEqual(["Ximena's quinces"])
      expect(yield* found("zoe")).toEqual(appends.map((_, k) => `Captured while the rebuild ran, number ${k}: Zoë’s café`).sort())
      const swapped = yield* dump
      yield* rebuild()
      expect(JSON.stringify(yield* dump)).toBe(JSON.stringify(swapped))
      expect(store.backend).toBe("pg")
    }).pipe(Effect.provide(layer())), 60_000)

  it.effect("a rebuild stopped part way leaves the live tables as they were, and the next one drops its leftovers and finishes", () =>
    Effect.gen(function*() {
      yield* G.given(...scenario(12))
      const live = JSON.stringify(yield* dump)
      const before = yield* catalogue
      let pages = 0
      const stopped = yield* Effect.exit(rebuildOnline({
        pageSize: 20,
        onPage: () => (++pages === 3 ? Effect.interrupt : Effect.void)
      }))
      expect(Exit.isInterrupted(stopped)).toBe(true)
      expect(JSON.stringify(yield* dump)).toBe(live)
      expect((yield* catalogue).schemas).toEqual([{ name: shadowSchema }])
      yield* rebuildOnline({ pageSize: 20 })
      expect(JSON.stringify(yield* dump)).toBe(live)
      expect(yield* catalogue).toEqual(before)
    }).pipe(Effect.provide(layer())), 60_000)

  it.effect("a second rebuild started while one runs is refused, and the first goes on", () =>
    Effect.gen(function*() {
      yield* G.given(...scenario(6))
      const live = JSON.stringify(yield* dump)
      const context = yield* Effect.context<EventStore | SqlClient>()
      let second: Exit.Exit<number, unknown> | undefined
      yield* rebuildOnline({
        pageSize: 20,
        onPage: () =>
          second !== undefined
            ? Effect.void
            : Effect.map(Effect.exit(Effect.provide(rebuildOnline(), context)), (exit) => void (second = exit))
      })
      expect(second).toBeDefined()
      expect(Exit.isFailure(second!) && String(Exit.causeOption(second!).pipe(Option.getOrThrow))).toContain(
        "another rebuild is running on this database; wait for it to finish"
      )
      expect(JSON.stringify(yield* dump)).toBe(live)
    }).pipe(Effect.provide(layer())), 60_000)
})

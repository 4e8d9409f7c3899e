/**
 * `verbatim rebuild` on PostgreSQL: the command rebuilds beside the live tables and swaps them in,
 * says so, leaves no schema of its own behind, and `--verify` then finds every table reproduced.
 */
import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql/SqlClient"
import * as Store from "@verbatim/projections/Store"
import * as Database from "@verbatim/testkit/Database"
import * as G from "@verbatim/testkit/Given"
import { Effect, Option } from "effect"
import { runCli, tempDir } from "./CliHarness.js"

const real = Effect.runSync(Effect.map(Database.testDatabaseUrl, Option.isSome))
if (!real) console.log("skipped: the rebuild beside the live tables needs a real PostgreSQL server; set VERBATIM_TEST_DATABASE_URL")

describe.skipIf(!real)("verbatim rebuild on PostgreSQL", () => {
  it.scoped("rebuilds beside the live tables, swaps them in and says so; --verify holds after it", () =>
    Effect.gen(function*() {
      const url = Option.getOrThrow(yield* Database.realPgDatabase)
      const env = { VERBATIM_DATABASE_URL: url, VERBATIM_DATA_DIR: yield* tempDir("verbatim-rebuild-") }
      yield* G.given([G.sessionStream("s"), [
        G.sessionOpened("s"),
        G.messageReceived("s", 1, "Ana moved to Porto"),
        G.messageReceived("s", 2, "Zoë’s café opens at 9"),
        G.sessionClosed("s", 2),
        G.planProduced("s", "plan-s", 2),
        G.noteRecorded("s", "note-s", [1, 2], { planId: "plan-s" }),
        G.planApplied("s", "plan-s")
      ]]).pipe(Effect.provide(Store.layerPg(url, { maxConnections: 2 })))
      const schemas = Effect.flatMap(SqlClient, (sql) =>
        Effect.map(sql<{ name: string }>`SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'verbatim%'`, (rows) => rows.map((r) => r.name)))
      const rebuilt = yield* runCli(["rebuild"], env)
      expect({ code: rebuilt.code, stdout: rebuilt.stdout }).toEqual({
        code: 0,
        stdout: "rebuilt every projection from 7 event(s) beside the live tables and swapped them in\n"
      })
      const verified = yield* runCli(["rebuild", "--verify"], env)
      expect({ code: verified.code, stdout: verified.stdout }).toEqual({ code: 0, stdout: "verified: rebuilding from 7 event(s) reproduces every table\n" })
      expect(yield* schemas.pipe(Effect.provide(Store.layerPg(url, { maxConnections: 1 })))).toEqual([])
    }), { timeout: 120_000 })
})

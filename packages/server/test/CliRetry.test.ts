/** `verbatim retry` while another process holds the session's plan lease, and once that holder has died. */
import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql/SqlClient"
import * as Store from "@verbatim/projections/Store"
import { Effect } from "effect"
import { join } from "node:path"
import { runCli, tempDir } from "./CliHarness.js"

const since = Date.parse("2026-12-01T21:00:00.000Z")

/** Set the plan lease of session s-1 as a planner on another host left it. */
const leaseHeld = (dataDir: string, expiresAt: number) =>
  Effect.flatMap(SqlClient, (sql) =>
    sql`INSERT INTO leases (lease_key, owner, expires_at, acquired_at) VALUES ('plan:s-1', 'host:1234:ab12', ${expiresAt}, ${since})
      ON CONFLICT (lease_key) DO UPDATE SET expires_at = excluded.expires_at`).pipe(
    Effect.provide(Store.layerSqlite({ filename: join(dataDir, "verbatim.db") })),
    Effect.scoped
  )

describe("verbatim retry", () => {
  it.scoped("names the process planning the session and since when; once its lease lapsed, plans as usual", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-cli-")
      const env = { VERBATIM_DATA_DIR: dir, VERBATIM_CASSETTE_DIR: dir }
      yield* leaseHeld(dir, Number.MAX_SAFE_INTEGER)
      expect(yield* runCli(["retry", "s-1"], env)).toEqual({
        code: 1,
        stdout: "",
        stderr: "verbatim: session s-1 is being planned by host:1234:ab12 since 2026-12-01T21:00:00.000Z; try again once it finishes\n"
      })
      yield* leaseHeld(dir, since + 15_000)
      expect(yield* runCli(["retry", "s-1"], env)).toEqual({
        code: 1,
        stdout: "",
        stderr: "verbatim: session s-1: not closed yet (or unknown); it is planned once it closes\n"
      })
    }))
})

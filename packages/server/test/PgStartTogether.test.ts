/**
 * Instances started together on a new PostgreSQL database (replicas rolled out at once): each
 * migrates it or finds it migrated, and every one starts.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Store from "@verbatim/projections/Store"
import * as Database from "@verbatim/testkit/Database"
import { Effect, Layer, Option } from "effect"

const real = Effect.runSync(Effect.map(Database.testDatabaseUrl, Option.isSome))
if (!real) console.log("skipped: instances racing to migrate need a real PostgreSQL server; set VERBATIM_TEST_DATABASE_URL")

const instances = 4

describe.skipIf(!real)("instances starting together on a new PostgreSQL database", () => {
  it.scoped("every one starts", () =>
    Effect.gen(function*() {
      for (let round = 0; round < 3; round++) {
        const url = Option.getOrThrow(yield* Database.realPgDatabase)
        const start = Effect.scoped(Layer.build(Store.layerPg(url, { maxConnections: 2 }))).pipe(
          Effect.as("started"),
          Effect.catchAll((error) => Effect.succeed(`failed: ${error.message}`))
        )
        const started = yield* Effect.all(Array.from({ length: instances }, () => start), { concurrency: "unbounded" })
        expect(started).toEqual(Array.from({ length: instances }, () => "started"))
      }
    }), { timeout: 60_000 })
})

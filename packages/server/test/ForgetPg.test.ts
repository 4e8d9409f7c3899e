/**
 * Forgetting on PostgreSQL: after a message is forgotten, a `pg_dump` of the whole database holds
 * none of its words, and the words of the messages kept are all there.
 */
import { describe, expect, it } from "@effect/vitest"
import { messageIdOf } from "@verbatim/domain/Ids"
import * as Store from "@verbatim/projections/Store"
import * as Database from "@verbatim/testkit/Database"
import { ConfigProvider, Effect, Layer, Option } from "effect"
import { execFileSync } from "node:child_process"
import { forget } from "../src/Forget/Forgetting.js"
import { IdGenerator } from "../src/IdGenerator.js"
import { TimeZones } from "../src/TimeZones.js"
import { capture } from "./ReplayFixture.js"

const real = Effect.runSync(Effect.map(Database.testDatabaseUrl, Option.isSome))
if (!real) console.log("skipped: a pg_dump scan needs a real PostgreSQL server; set VERBATIM_TEST_DATABASE_URL")

const secret = "Zephyrine keeps the spare key under the blue pot"

const dump = (url: string) => execFileSync("pg_dump", ["--data-only", url], { maxBuffer: 64 * 1024 * 1024 }).toString("utf8")

describe.skipIf(!real)("forgetting on PostgreSQL", () => {
  it.scoped("a pg_dump after forgetting a message holds none of its words", () =>
    Effect.gen(function*() {
      const url = Option.getOrThrow(yield* Database.realPgDatabase)
      yield* Effect.gen(function*() {
        yield* capture(1, secret)
        yield* capture(2, "Bob owes me lunch")
        expect(dump(url).includes("blue pot")).toEqual(true)
        const done = yield* forget({ _tag: "Message", messageId: messageIdOf("telegram", "100000001:1") }, null, null)
        expect({ messages: done.messages, sessions: done.sessions }).toEqual({ messages: 1, sessions: 1 })
      }).pipe(Effect.provide(Layer.merge(IdGenerator.layer, TimeZones.layerZone("UTC")).pipe(
        Layer.provideMerge(Store.layerPg(url, { maxConnections: 4 })),
        Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map())))
      )))
      const after = dump(url)
      expect(["Zephyrine", "blue pot", "spare key"].filter((w) => after.includes(w))).toEqual([])
      expect(after.includes("Bob owes me lunch")).toEqual(true)
    }), { timeout: 120_000 })
})

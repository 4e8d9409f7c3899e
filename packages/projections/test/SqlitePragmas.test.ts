/** The settings a writable SQLite open runs with: every connection the service writes through gets them. */
import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql/SqlClient"
import * as Store from "@verbatim/projections/Store"
import { tempDir } from "@verbatim/testkit/TempDir"
import { ConfigProvider, Effect } from "effect"
import { existsSync } from "node:fs"
import { join } from "node:path"

const settings = Effect.gen(function*() {
  const sql = yield* SqlClient
  const one = (pragma: string) => Effect.map(sql.unsafe<Record<string, unknown>>(`PRAGMA ${pragma}`), (rows) => Object.values(rows[0]!)[0])
  return {
    journal: yield* one("journal_mode"),
    synchronous: yield* one("synchronous"),
    busyTimeout: yield* one("busy_timeout"),
    autocheckpoint: yield* one("wal_autocheckpoint")
  }
})

describe("SQLite open for writing", () => {
  it.scoped("WAL, SQLite's own synchronous at NORMAL (a FULL store flushes its log itself), a 5 s busy timeout, a checkpoint every 4,000 pages", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-pragmas-")
      const full = yield* Effect.provide(settings, Store.layerSqlite({ filename: join(dir, "full.db") }))
      const normal = yield* Effect.provide(settings, Store.layerSqlite({ filename: join(dir, "normal.db"), synchronous: "NORMAL" }))
      expect(full).toEqual({ journal: "wal", synchronous: 1, busyTimeout: 5000, autocheckpoint: 4000 })
      expect(normal).toEqual({ journal: "wal", synchronous: 1, busyTimeout: 5000, autocheckpoint: 4000 })
    }))

  it.scoped("with background checkpoints, the commit's own checkpoint is a backstop at 16,000 pages", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-pragmas-")
      const layer = Store.layerSqlite({ filename: join(dir, "background.db"), backgroundCheckpoints: true })
      expect(yield* Effect.provide(settings, layer)).toEqual({ journal: "wal", synchronous: 1, busyTimeout: 5000, autocheckpoint: 16000 })
    }))

  it.scoped("the server's configured store checkpoints in the background; the commands' does not", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-pragmas-")
      const config = ConfigProvider.fromMap(new Map([["VERBATIM_DATA_DIR", dir], ["VERBATIM_SQLITE_SYNCHRONOUS", "NORMAL"]]))
      const opened = (layer: typeof Store.layerConfig) => Effect.provide(settings, layer).pipe(Effect.withConfigProvider(config))
      expect(yield* opened(Store.layerServing)).toEqual({ journal: "wal", synchronous: 1, busyTimeout: 5000, autocheckpoint: 16000 })
      expect(yield* opened(Store.layerConfig)).toEqual({ journal: "wal", synchronous: 1, busyTimeout: 5000, autocheckpoint: 4000 })
    }))

  it.scoped("the log's flush finds the log beside the database, and has nothing to do before there is one", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-pragmas-")
      const filename = join(dir, "flushed.db")
      yield* yield* Store.logFlush(filename)
      const written = Effect.gen(function*() {
        const sql = yield* SqlClient
        yield* sql`CREATE TABLE t (x INTEGER)`
        const log = existsSync(`${filename}-wal`)
        yield* yield* Store.logFlush(filename)
        return log
      })
      // The log goes when the last connection closes; it is there while the store is open.
      expect(yield* Effect.provide(written, Store.layerSqlite({ filename }))).toBe(true)
    }))
})

/** The configured store: SQLite under VERBATIM_DATA_DIR by default, PostgreSQL for a postgres:// URL, nothing else. */
import { describe, expect, it } from "@effect/vitest"
import { EventStore } from "@verbatim/projections/EventStore"
import * as Store from "@verbatim/projections/Store"
import { tempDir } from "@verbatim/testkit/TempDir"
import { ConfigProvider, Effect, Layer } from "effect"
import { existsSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const withConfig = (entries: Record<string, string>) =>
  Store.layerConfig.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(entries))))))

describe("Store.layerConfig", () => {
  it.effect("with no database URL, SQLite in a file under the data directory", () =>
    Effect.gen(function*() {
      const dir = join(yield* tempDir("verbatim-config-"), "data")
      const backend = yield* Effect.map(EventStore, (store) => store.backend).pipe(
        Effect.provide(withConfig({ VERBATIM_DATA_DIR: dir, VERBATIM_SQLITE_SYNCHRONOUS: "NORMAL" }))
      )
      expect([backend, existsSync(join(dir, "verbatim.db"))]).toEqual(["sqlite", true])
    }).pipe(Effect.scoped))

  it.effect("a URL that is not postgres:// is a configuration error", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Effect.provide(EventStore, withConfig({ VERBATIM_DATABASE_URL: "mysql://db/verbatim" })))
      expect(String(error)).toBe('(Invalid data at VERBATIM_DATABASE_URL: "expected a postgres:// or postgresql:// URL")')
    }))

  it.effect("an unknown synchronous mode is a configuration error", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Effect.provide(EventStore, withConfig({ VERBATIM_SQLITE_SYNCHRONOUS: "OFF" })))
      expect(String(error)).toBe('(Invalid data at VERBATIM_SQLITE_SYNCHRONOUS: "Expected one of (FULL, NORMAL) but received "OFF"")')
    }))

  it.effect("a data directory that cannot be created is a configuration error naming it", () =>
    Effect.gen(function*() {
      const file = join(yield* tempDir("verbatim-config-"), "a-file")
      writeFileSync(file, "")
      const error = yield* Effect.flip(Effect.provide(EventStore, withConfig({ VERBATIM_DATA_DIR: file })))
      expect(String(error)).toBe(
        `(Invalid data at VERBATIM_DATA_DIR: "cannot use ${file} for the data: EEXIST: file already exists, mkdir '${file}'")`
      )
    }).pipe(Effect.scoped))
})

/** SQLite shared by two processes (a server and the CLI beside it): an append waits for the other writer. */
import { describe, expect, it } from "@effect/vitest"
import { EventStore } from "@verbatim/projections/EventStore"
import * as Store from "@verbatim/projections/Store"
import { messageReceived, sessionOpened } from "@verbatim/testkit/Given"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { createRequire } from "node:module"
import { join } from "node:path"
import { tempDir } from "@verbatim/testkit/TempDir"

/** Another process that reads, then writes and holds SQLite's write lock for `ms` before committing. */
const otherWriter = (filename: string, ms: number) =>
  Effect.async<void>((resume) => {
    const driver = createRequire(import.meta.url).resolve("better-sqlite3")
    const script = `
      const db = new (require(${JSON.stringify(driver)}))(${JSON.stringify(filename)})
      db.exec("BEGIN IMMEDIATE")
      db.prepare("INSERT INTO leases (lease_key, owner, expires_at) VALUES ('other', 'cli', 0)").run()
      process.stdout.write("locked\\n")
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms})
      db.exec("COMMIT")`
    const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] })
    child.stdout.once("data", () => resume(Effect.void))
    child.once("exit", (code) => code !== 0 && resume(Effect.die(new Error(`the other writer exited with ${code}`))))
  })

describe("SQLite shared by two processes", () => {
  it.scoped("an append that reads while another process holds the write lock waits for it instead of failing", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-two-")
      const filename = join(dir, "events.db")
      yield* Effect.gen(function*() {
        const store = yield* EventStore
        yield* store.append("session-a", 0, [sessionOpened("a")])
        yield* otherWriter(filename, 300)
        const appended = yield* store.append("session-a", 1, [messageReceived("a", 1, "written while the CLI imports")])
        expect(appended).toEqual({ _tag: "Appended", positions: [2], version: 2 })
      }).pipe(Effect.provide(Store.layerSqlite({ filename, synchronous: "NORMAL" })))
    }))
})

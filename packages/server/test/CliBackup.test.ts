/** `verbatim backup` while messages are appended, `verbatim restore` into a fresh directory, and their refusals. */
import { describe, expect, it } from "@effect/vitest"
import { tokenNotice } from "../src/Cli/Restore.js"
import { EventStore, start } from "@verbatim/projections/EventStore"
import * as Store from "@verbatim/projections/Store"
import { messageReceived, sessionOpened, sessionStream } from "@verbatim/testkit/Given"
import { Chunk, Effect, Fiber, Ref, Stream } from "effect"
import { readdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { runCli, tempDir } from "./CliHarness.js"

const onStore = (dataDir: string) => Store.layerSqlite({ filename: join(dataDir, "verbatim.db") })

/** Append message after message to s-1, each once the previous was acknowledged, recording the texts acknowledged. */
const appendForever = (acknowledged: Ref.Ref<ReadonlyArray<string>>) =>
  Effect.gen(function*() {
    const store = yield* EventStore
    for (let seq = 1;; seq++) {
      const text = `message ${seq}`
      yield* store.append(sessionStream("s-1"), "any", [messageReceived("s-1", seq, text)])
      yield* Ref.update(acknowledged, (texts) => [...texts, text])
      yield* Effect.sleep("2 millis")
    }
  })

/** The texts of every message in a data directory's log, in log order. */
const loggedTexts = (dataDir: string) =>
  Effect.gen(function*() {
    const store = yield* EventStore
    const events = Chunk.toArray(yield* Stream.runCollect(store.readAll(start)))
    return events.flatMap((r) => (r.event._tag === "MessageReceived" ? [r.event.message.text] : []))
  }).pipe(Effect.provide(onStore(dataDir)), Effect.scoped)

describe("verbatim backup and restore", () => {
  it.scopedLive("a backup taken while messages are appended restores with every message acknowledged before it, and verifies", () =>
    Effect.gen(function*() {
      const live = yield* tempDir("verbatim-live-")
      const fresh = yield* tempDir("verbatim-fresh-")
      const copies = yield* tempDir("verbatim-copies-")
      const file = join(copies, "verbatim.backup")
      const acknowledged = yield* Ref.make<ReadonlyArray<string>>([])
      const { after, backedUp, before } = yield* Effect.gen(function*() {
        const store = yield* EventStore
        yield* store.append(sessionStream("s-1"), "any", [sessionOpened("s-1")])
        const appending = yield* Effect.fork(appendForever(acknowledged))
        yield* Effect.sleep("200 millis")
        const before = (yield* Ref.get(acknowledged)).length
        const backedUp = yield* runCli(["backup", file], { VERBATIM_DATA_DIR: live })
        yield* Effect.sleep("200 millis")
        yield* Fiber.interrupt(appending)
        return { after: (yield* Ref.get(acknowledged)).length, backedUp, before }
      }).pipe(Effect.provide(onStore(live)), Effect.scoped)

      const restored = yield* runCli(["restore", file], { VERBATIM_DATA_DIR: fresh })
      const texts = yield* loggedTexts(fresh)
      const sent = yield* Ref.get(acknowledged)
      // The copy is one snapshot: the messages acknowledged before it began, and then a prefix of the rest.
      expect(texts).toEqual(sent.slice(0, texts.length))
      expect(texts.length >= before && texts.length <= after && after > before).toEqual(true)
      const events = texts.length + 1
      expect(backedUp).toEqual({
        code: 0,
        stdout: `backed up ${events} event(s), through log position ${events}, from ${live}/verbatim.db to ${file}; it includes no forgetting (words forgotten later stay in this copy: it is yours to keep or destroy)\n`,
        stderr: ""
      })
      expect(restored).toEqual({
        code: 0,
        stdout: `restored ${events} event(s), through log position ${events}, into ${fresh}/verbatim.db\n`,
        stderr: `${tokenNotice(fresh)}\n`
      })
      const verified = yield* runCli(["rebuild", "--verify"], { VERBATIM_DATA_DIR: fresh })
      expect({ ...verified, stderr: verified.stderr.replace(/\(\d+\/s\)/, "(<rate>/s)") }).toEqual({
        code: 0,
        stdout: `verified: rebuilding from ${events} event(s) reproduces every table\n`,
        stderr: `rebuild: ${events}/${events} (<rate>/s)\n`
      })
    }), { timeout: 120_000 })

  it.scopedLive("refuses a data directory that has a database, a backup file that exists, and a file that is no database", () =>
    Effect.gen(function*() {
      const live = yield* tempDir("verbatim-live-")
      const empty = yield* tempDir("verbatim-empty-")
      const copies = yield* tempDir("verbatim-copies-")
      const file = join(copies, "verbatim.backup")
      const junk = join(copies, "notes.txt")
      writeFileSync(junk, "not a database\n")
      yield* Effect.flatMap(EventStore, (store) => store.append(sessionStream("s-1"), "any", [sessionOpened("s-1")])).pipe(
        Effect.provide(onStore(live)),
        Effect.scoped
      )
      expect(yield* runCli(["backup", file], { VERBATIM_DATA_DIR: live })).toEqual({
        code: 0,
        stdout: `backed up 1 event(s), through log position 1, from ${live}/verbatim.db to ${file}; it includes no forgetting (words forgotten later stay in this copy: it is yours to keep or destroy)\n`,
        stderr: ""
      })
      expect(yield* runCli(["backup", file], { VERBATIM_DATA_DIR: live })).toEqual({
        code: 1,
        stdout: "",
        stderr: `verbatim: ${file} already exists; back up to a new file\n`
      })
      expect(yield* runCli(["backup", file], { VERBATIM_DATA_DIR: empty })).toEqual({
        code: 1,
        stdout: "",
        stderr: `verbatim: no database at ${empty}/verbatim.db: nothing to back up; set VERBATIM_DATA_DIR to the server's data directory\n`
      })
      expect(yield* runCli(["restore", file], { VERBATIM_DATA_DIR: live })).toEqual({
        code: 1,
        stdout: "",
        stderr: `verbatim: ${live} already has a database (${live}/verbatim.db already exists); ` +
          "restore into an empty data directory (set VERBATIM_DATA_DIR)\n"
      })
      expect(yield* runCli(["restore", junk], { VERBATIM_DATA_DIR: empty })).toEqual({
        code: 1,
        stdout: "",
        stderr: `verbatim: ${junk} is not a Verbatim database: file is not a database; nothing was restored\n`
      })
      expect(readdirSync(empty)).toEqual([])
    }), { timeout: 120_000 })

  it.scopedLive("on PostgreSQL prints the pg_dump and pg_restore commands for the configured URL, without its password", () =>
    Effect.gen(function*() {
      const env = { VERBATIM_DATABASE_URL: "postgres://alice:s3cret@db.example:6543/verbatim?sslmode=require" }
      expect(yield* runCli(["backup", "/backups/verbatim 1.dump"], env)).toEqual({
        code: 0,
        stdout: "PGSSLMODE=require pg_dump --format=custom --host=db.example --port=6543 --username=alice --dbname=verbatim " +
          "--file='/backups/verbatim 1.dump'\n",
        stderr: "PostgreSQL is backed up by pg_dump (one consistent snapshot while the server runs); run:\n"
      })
      const copies = yield* tempDir("verbatim-copies-")
      const file = join(copies, "verbatim.dump")
      writeFileSync(file, "")
      expect(yield* runCli(["restore", file], { VERBATIM_DATABASE_URL: "postgresql://localhost/notes" })).toEqual({
        code: 0,
        stdout: `pg_restore --exit-on-error --single-transaction --no-owner --host=localhost --port=5432 --dbname=notes ${file}\n`,
        stderr: "PostgreSQL is restored by pg_restore, into an empty database; run:\n"
      })
    }), { timeout: 60_000 })
})

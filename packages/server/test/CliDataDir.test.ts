/**
 * A data directory the CLI may not use is one line naming the path, what is wrong and what to
 * do; commands that only read work on a read-only database. Run as an unprivileged user, since
 * root ignores file modes.
 */
import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql/SqlClient"
import * as Store from "@verbatim/projections/Store"
import { Effect } from "effect"
import { chmodSync, mkdirSync } from "node:fs"
import { join } from "node:path"
import { fixture, runCli, tempDir, withMode } from "./CliHarness.js"

const as = { unprivileged: true }
const session = "telegram:4242:4242:1"

const accounting = `session ${session} (closed), user telegram:4242, 3 message(s)\n` +
  "  seq 1 telegram:telegram-export:4242:11: awaiting a plan\n" +
  "  seq 2 telegram:telegram-export:4242:12: awaiting a plan\n" +
  "  seq 3 telegram:telegram-export:4242:13: awaiting a plan\n"

const importArgs = ["import", "telegram-export", fixture("telegram-result.json"), "--user", "telegram:4242", "--idle", "3600", "--quiet"]

const remedy = "make it writable by this user, or point VERBATIM_DATA_DIR at a writable directory"

/** A folder the unprivileged user may write in, with a store imported into its `data` by that user. */
const importedStore = Effect.gen(function*() {
  const dir = yield* tempDir("verbatim-datadir-")
  yield* withMode(dir, 0o777)
  const data = join(dir, "data")
  const env = { VERBATIM_DATA_DIR: data, PORT: "0" }
  const imported = yield* runCli(importArgs, env, as)
  expect({ code: imported.code, stdout: imported.stdout }).toEqual({
    code: 0,
    stdout: `imported ${fixture("telegram-result.json")}: 4 new message(s) of 4, 0 already recorded (0 by id, 0 by sender, minute and text), 2 session(s) closed for planning\n` +
      `  ${session}\n  telegram:4242:4242:2\n`
  })
  return { data, db: join(data, "verbatim.db"), env }
})

const tagsOf = (stdout: string) =>
  stdout.trim().split("\n").map((line) => (JSON.parse(line) as { event: { _tag: string } }).event._tag)

const failed = (stderr: string) => ({ code: 1, stdout: "", stderr: `verbatim: ${stderr}\n` })

describe("a data directory the CLI may not use", () => {
  it.scoped("one that cannot be created stops serve, writing and reading commands with one line", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-datadir-")
      yield* withMode(dir, 0o755)
      const locked = join(dir, "locked")
      mkdirSync(locked)
      yield* withMode(locked, 0o555)
      const data = join(locked, "data")
      const env = { VERBATIM_DATA_DIR: data, PORT: "0" }
      const line = failed(
        `cannot create the data directory ${data} (permission denied); create it writable by this user, ` +
          "or point VERBATIM_DATA_DIR at a writable directory"
      )
      for (const args of [["serve"], importArgs, ["events"]]) {
        expect(yield* runCli(args, env, as)).toEqual(line)
      }
    }))

  it.scoped("a read-only database stops every writing command, and the reading ones read it", () =>
    Effect.gen(function*() {
      const { db, env } = yield* importedStore
      const writable = yield* runCli(["events"], env, as)
      expect(tagsOf(writable.stdout)).toEqual([
        "SessionOpened",
        "MessageReceived",
        "MessageReceived",
        "MessageReceived",
        "SessionClosed",
        "SessionOpened",
        "MessageReceived",
        "SessionClosed"
      ])
      yield* Effect.scoped(Effect.gen(function*() {
        yield* withMode(db, 0o444)
        expect(yield* runCli(["events"], env, as)).toEqual({ code: 0, stdout: writable.stdout, stderr: "" })
        expect(yield* runCli(["accounting", session], env, as)).toEqual({ code: 0, stdout: accounting, stderr: "" })
        expect(yield* runCli(["audit", "note_missing"], env, as)).toEqual(
          failed("no note note_missing; list notes with GET /api/people/:id/notes")
        )
        const line = failed(`cannot write the database ${db} (read-only file); ${remedy}`)
        for (const args of [["serve"], importArgs]) {
          expect(yield* runCli(args, env, as)).toEqual(line)
        }
      }))
      // The read-only opens left SQLite's side files as read-only as the database was.
      expect(yield* runCli(["rebuild"], env, as)).toEqual(failed(
        `cannot write ${db}-wal, the database's wal file (read-only file); make it writable by this user as verbatim.db is, ` +
          "or point VERBATIM_DATA_DIR at a writable directory"
      ))
    }))

  it.scoped("a data directory that is not writable stops serve, and a reading command says what SQLite needs", () =>
    Effect.gen(function*() {
      const { data, db, env } = yield* importedStore
      yield* withMode(data, 0o555)
      expect(yield* runCli(["serve"], env, as)).toEqual(
        failed(`cannot write in the data directory ${data} (not writable by this user); ${remedy}`)
      )
      expect(yield* runCli(["accounting", session], env, as)).toEqual(failed(
        `cannot read the database ${db} (its directory is read-only, and SQLite needs to create verbatim.db-shm beside it); ` +
          `make ${data} writable by this user, or copy the data directory somewhere writable and point VERBATIM_DATA_DIR at the copy`
      ))
    }))

  it.scoped("a schema behind this version's is migrated by a reading command that may write, refused when read-only", () =>
    Effect.gen(function*() {
      const { db, env } = yield* importedStore
      // Undo the newest migration (33: the quotes askers confirmed, kept beside their questions), as a
      // store of the previous version has it.
      yield* Effect.gen(function*() {
        const sql = yield* SqlClient
        yield* sql`ALTER TABLE asks DROP COLUMN confirmed`
        yield* sql`DELETE FROM verbatim_migrations WHERE migration_id = 33`
      }).pipe(Effect.provide(Store.layerSqlite({ filename: db })))
      yield* Effect.scoped(Effect.gen(function*() {
        yield* withMode(db, 0o444)
        expect(yield* runCli(["accounting", session], env, as)).toEqual(failed(
          `cannot read the database ${db} without migrating it (schema at migration 32 of 33), and migrating needs a writable open, ` +
            `but cannot write the database ${db} (read-only file); ${remedy}`
        ))
      }))
      // The read-only open left SQLite's side files read-only too; an operator fixing the mode fixes them with it.
      for (const side of ["-wal", "-shm"]) chmodSync(`${db}${side}`, 0o644)
      expect(yield* runCli(["accounting", session], env, as)).toEqual({ code: 0, stdout: accounting, stderr: "" })
      const applied = yield* Effect.flatMap(SqlClient, (sql) => sql<{ id: number }>`SELECT MAX(migration_id) AS id FROM verbatim_migrations`).pipe(
        Effect.provide(Store.layerSqlite({ filename: db }))
      )
      expect(applied).toEqual([{ id: 33 }])
    }))
})

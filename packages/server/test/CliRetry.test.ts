/** `verbatim retry`: a held lease, an unknown session, a first and a second failure, and a key the provider refuses. */
import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql/SqlClient"
import * as Store from "@verbatim/projections/Store"
import { FakeAnthropic, FakeReply } from "@verbatim/testkit/FakeAnthropic"
import { Effect, Layer } from "effect"
import { join } from "node:path"
import { type CliRun, runCli, tempDir } from "./CliHarness.js"
import { closedSession, eventsAfterClose, text } from "./planJobHarness.js"
import { TimeZones } from "../src/TimeZones.js"

const since = Date.parse("2026-12-01T21:00:00.000Z")

const sqlite = (dataDir: string) => Store.layerSqlite({ filename: join(dataDir, "verbatim.db") })

/** Set the plan lease of session s-1 as a planner on another host left it. */
const leaseHeld = (dataDir: string, expiresAt: number) =>
  Effect.flatMap(SqlClient, (sql) =>
    sql`INSERT INTO leases (lease_key, owner, expires_at, acquired_at) VALUES ('plan:s-1', 'host:1234:ab12', ${expiresAt}, ${since})
      ON CONFLICT (lease_key) DO UPDATE SET expires_at = excluded.expires_at`).pipe(
    Effect.provide(sqlite(dataDir)),
    Effect.scoped
  )

/** A closed session of two messages in the store under `dataDir`. */
const seeded = (dataDir: string) =>
  closedSession(text(1, "Ana moved to Porto."), text(2, "She starts at Acme.")).pipe(Effect.provide(Layer.merge(sqlite(dataDir), TimeZones.layerZone("UTC"))), Effect.scoped)

/** A run with its log lines (logfmt, `timestamp=…`) left out: what the command itself said. */
const said = (run: CliRun) => ({ ...run, stderr: run.stderr.split("\n").filter((l) => !l.startsWith("timestamp=")).join("\n") })

/** The CLI's environment with the model behind the fake Messages API. */
const onFake = (dir: string, fake: FakeAnthropic["Type"]) => ({
  VERBATIM_DATA_DIR: dir,
  ANTHROPIC_API_KEY: "sk-cli-test",
  ANTHROPIC_BASE_URL: fake.baseUrl,
  VERBATIM_MODEL: "claude-test",
  VERBATIM_MODEL_MAX_ATTEMPTS: "1"
})

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
        stderr: "verbatim: no session s-1: nothing was captured under that id (`verbatim events` lists the log)\n"
      })
    }))

  it.scoped("a session that does not exist is named as such, with or without a model configured", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-cli-")
      const unknown = {
        code: 1,
        stdout: "",
        stderr: "verbatim: no session nope: nothing was captured under that id (`verbatim events` lists the log)\n"
      }
      expect(yield* runCli(["retry", "nope"], { VERBATIM_DATA_DIR: dir })).toEqual(unknown)
      expect(yield* runCli(["retry", "nope"], { VERBATIM_DATA_DIR: dir, VERBATIM_CASSETTE_DIR: dir })).toEqual(unknown)
    }))

  it.scoped("a first failure says it failed, a second that it failed again", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-cli-")
      const fake = yield* FakeAnthropic.make
      const sessionId = yield* seeded(dir)
      yield* fake.script(FakeReply.badRequest(), FakeReply.badRequest())
      const why = "see the PlanFailed event (`verbatim events`) and the log for why"
      expect(said(yield* runCli(["retry", sessionId], onFake(dir, fake)))).toEqual({
        code: 1,
        stdout: "",
        stderr: `verbatim: session ${sessionId}: planning failed; ${why}\n`
      })
      expect(said(yield* runCli(["retry", sessionId], onFake(dir, fake)))).toEqual({
        code: 1,
        stdout: "",
        stderr: `verbatim: session ${sessionId}: planning failed again; ${why}\n`
      })
    }))

  it.scoped("a key the provider refuses records nothing and says why, with the provider's message", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-cli-")
      const fake = yield* FakeAnthropic.make
      const sessionId = yield* seeded(dir)
      yield* fake.script(FakeReply.unauthorized())
      const run = yield* runCli(["retry", sessionId], onFake(dir, fake))
      expect(said(run)).toEqual({
        code: 1,
        stdout: "",
        stderr: `verbatim: session ${sessionId}: not planned, nothing recorded: planning held: the model provider refused the API key ` +
          `(ANTHROPIC_API_KEY) (HTTP 401): 401 {"type":"error","error":{"type":"authentication_error","message":"fake authentication_error"}}; ` +
          "fix the configuration and retry\n"
      })
      expect(run.stderr.split("\n").filter((l) => l.startsWith("timestamp=")).map((l) => l.replace(/^timestamp=\S+ /, "").replace(/fiber=#\d+ /, "")))
        .toEqual([
          "level=ERROR message=\"planning held: the model provider refused the operator's configuration\" fault=credentials " +
          "providerMessage=\"401 {\\\"type\\\":\\\"error\\\",\\\"error\\\":{\\\"type\\\":\\\"authentication_error\\\",\\\"message\\\":\\\"fake authentication_error\\\"}}\" status=401"
        ])
      expect(yield* eventsAfterClose(sessionId).pipe(Effect.provide(sqlite(dir)), Effect.scoped)).toEqual([])
    }))
})

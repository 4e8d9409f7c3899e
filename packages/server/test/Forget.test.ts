/**
 * `verbatim forget` over a recorded store: without `--yes` it changes nothing; with it the words
 * are gone from every byte of the SQLite files (the database, its write-ahead log), the
 * accounting reads `Erased`, and `rebuild --verify` holds on the scrubbed log.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { load } from "../src/Sessions.js"
import { normalise, runCli, tempDir } from "./CliHarness.js"
import { storeHolds } from "./StoreBytes.js"
import * as Directory from "@verbatim/domain/Eval/Directory"
import { ScriptedLanguageModel } from "@verbatim/testkit/ScriptedLanguageModel"
import { replaySession } from "../src/Replay.js"
import { modelLayer, record, servicesLayer, sessions, v1 } from "./ReplayFixture.js"

/** The recorded model answers in `dir` holding `marker`, and all of them. */
const cassettes = (dir: string, marker: string) => {
  const all = readdirSync(dir).sort()
  return { all, holding: all.filter((f) => readFileSync(join(dir, f), "utf8").includes(marker)) }
}

const noteOf = (env: Record<string, string>, sessionId: (typeof sessions)["one"], seqs: ReadonlyArray<number>) =>
  Effect.map(load(sessionId), ({ state }) => [...state.notes.values()].find((n) => n.sources.map((s) => s.seq).join() === seqs.join())!.noteId).pipe(
    Effect.provide(servicesLayer(env["VERBATIM_DATA_DIR"]!, env["VERBATIM_PROMPT_DIR"]!, modelLayer(env["VERBATIM_CASSETTE_DIR"]!, [])))
  )

describe("verbatim forget", () => {
  it.scoped("a note's words leave every byte of the store; its message reads Erased; rebuild --verify holds", () =>
    Effect.gen(function*() {
      const { env } = yield* Effect.flatMap(tempDir("verbatim-forget-"), record)
      const dir = env["VERBATIM_DATA_DIR"]!
      const tom = yield* noteOf(env, sessions.one, [4])
      expect(storeHolds(dir, "Tom moved to Lisbon").length).toBeGreaterThan(0)
      const recorded = cassettes(env["VERBATIM_CASSETTE_DIR"]!, "Tom moved to Lisbon")
      expect(recorded.holding.length).toBeGreaterThan(0)
      const preview = yield* runCli(["forget", "--note", tom], env)
      expect(preview).toEqual({
        code: 0,
        stderr: "",
        stdout: "would forget 1 message of 1 session of telegram:100000001; nothing was changed: run again with --yes to forget them for good\n"
      })
      const done = yield* runCli(["forget", "--note", tom, "--yes"], env)
      expect({ code: done.code, stdout: done.stdout.replace(/\(forget_[^)]+\)/, "(forget_<id>)").replace(/\d+ stored events?/, "N stored events") }).toEqual({
        code: 0,
        stdout: "forgot 1 message of 1 session of telegram:100000001 (forget_<id>): N stored events rewritten without their words, " +
          "the store compacted; backups taken before still hold them\n"
      })
      expect(storeHolds(dir, "Tom moved to Lisbon")).toEqual([])
      expect(storeHolds(dir, "Lisbon")).toEqual([])
      // The recorded answers to requests that held the note's words go; every other one stays.
      expect(cassettes(env["VERBATIM_CASSETTE_DIR"]!, "Tom moved to Lisbon")).toEqual({
        all: recorded.all.filter((f) => !recorded.holding.includes(f)),
        holding: []
      })
      const accounting = yield* runCli(["accounting", sessions.one], env)
      expect(normalise(accounting.stdout).replace(/erased on \d{4}-\d\d-\d\d/, "erased on <date>")).toEqual([
        `session ${sessions.one} (planned), user telegram:100000001, 4 message(s)`,
        "  seq 1 telegram:100000001:1: note note_1",
        "  seq 2 telegram:100000001:2: note note_1",
        "  seq 3 telegram:100000001:3: note note_2; cut \"remind me on Friday: \"",
        "  seq 4 telegram:100000001:4: erased on <date> at the user's request",
        ""
      ].join("\n"))
      const scripted = ScriptedLanguageModel.layer([v1.one])
      // A replay sends the model none of the forgotten words, and says how many messages it left out.
      const replayed = yield* Effect.gen(function*() {
        const result = yield* replaySession(sessions.one, { promptVersion: "v1", repeat: 1, people: () => Directory.make([]) })
        return { erased: "erased" in result ? result.erased : null, sent: JSON.stringify(yield* ScriptedLanguageModel.requests) }
      }).pipe(Effect.provide(Layer.provideMerge(servicesLayer(dir, env["VERBATIM_PROMPT_DIR"]!, scripted), scripted)))
      expect({ erased: replayed.erased, lisbon: replayed.sent.includes("Lisbon"), clinic: replayed.sent.includes("starts at the clinic") })
        .toEqual({ erased: 1, lisbon: false, clinic: true })
      const backup = yield* runCli(["backup", join(dir, "copy.db")], env)
      expect(backup.stdout.replace(/at \d{4}-[\d:.TZ-]+ \(/, "at <time> (").replace(/backed up \d+ event\(s\), through log position \d+/, "backed up N")).toEqual(
        `backed up N, from ${dir}/verbatim.db to ${join(dir, "copy.db")}; the newest forgetting it includes was recorded at <time> ` +
          "(words forgotten later stay in this copy: it is yours to keep or destroy)\n"
      )
      const again = yield* runCli(["forget", "--note", tom, "--yes"], env)
      expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 1, stderr: "verbatim: nothing by that id: `verbatim events` and the web pages show the ids\n" })
      // One message of a note of two: the note keeps the other, and its audit says which it lost.
      expect((yield* runCli(["forget", "--message", "telegram:100000001:2", "--yes"], env)).code).toEqual(0)
      const audit = yield* runCli(["audit", "note_1"], env)
      expect(audit.stdout.split("\n").filter((line) => line.includes("erased")).map((line) => line.replace(/\d{4}-\d\d-\d\d/, "<date>")))
        .toEqual(["seq 2 (telegram:100000001:2): erased on <date> at the user's request"])
      const verify = yield* runCli(["rebuild", "--verify"], env)
      expect({ code: verify.code, stdout: verify.stdout.replace(/\d+ event/, "N event"), stderr: verify.stderr.replace(/rebuild: .*\n/, "") }).toEqual({
        stderr: "",
        code: 0,
        stdout: "verified: rebuilding from N event(s) reproduces every table\n"
      })
    }), { timeout: 120_000 })

  it.scoped("a person: every note filed under them and their name, from every byte of the store", () =>
    Effect.gen(function*() {
      const { env } = yield* Effect.flatMap(tempDir("verbatim-forget-"), record)
      const dir = env["VERBATIM_DATA_DIR"]!
      for (const marker of ["quiet desk by the window", "starts at the clinic", "notes: Ana"]) expect(storeHolds(dir, marker).length).toBeGreaterThan(0)
      const done = yield* runCli(["forget", "--person", "person_1", "--yes"], env)
      expect(done.code).toEqual(0)
      // "Ana prefers tea" is in a question (its plan failed), filed under no one: it stays.
      // The plan's summary named her ("Added 3 notes: Ana, Tom."): the reply that named her keeps no text.
      const markers = ["quiet desk by the window", "starts at the clinic", "4 April", "notes: Ana"]
      expect(markers.filter((marker) => storeHolds(dir, marker).length > 0)).toEqual([])
      // Tom's words stay: only Ana's notes were forgotten.
      expect(storeHolds(dir, "Tom moved to Lisbon").length).toBeGreaterThan(0)
      const verify = yield* runCli(["rebuild", "--verify"], env)
      expect({ code: verify.code, stderr: verify.stderr.replace(/rebuild: .*\n/, "") }).toEqual({ code: 0, stderr: "" })
    }), { timeout: 120_000 })

  it.scoped("everything of a user: no word they sent is left in the store, and rebuild --verify holds", () =>
    Effect.gen(function*() {
      const { env } = yield* Effect.flatMap(tempDir("verbatim-forget-"), record)
      const dir = env["VERBATIM_DATA_DIR"]!
      const words = ["clinic in March", "quiet desk", "4 April", "Lisbon", "0199", "lunch with Ana", "prefers tea"]
      expect(words.filter((w) => storeHolds(dir, w).length > 0)).toEqual(words)
      const preview = yield* runCli(["forget", "--user", "telegram:100000001"], env)
      expect(preview.stdout).toEqual(
        "would forget 7 messages of 3 sessions and 2 people with their names of telegram:100000001; nothing was changed: run again with --yes to forget them for good\n"
      )
      expect((yield* runCli(["forget", "--user", "telegram:100000001", "--yes"], env)).code).toEqual(0)
      expect(words.filter((w) => storeHolds(dir, w).length > 0)).toEqual([])
      const verify = yield* runCli(["rebuild", "--verify"], env)
      expect({ code: verify.code, stderr: verify.stderr.replace(/rebuild: .*\n/, "") }).toEqual({ code: 0, stderr: "" })
    }), { timeout: 120_000 })
})

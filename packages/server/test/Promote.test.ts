/**
 * `verbatim replay --promote` over a recorded store whose user curated their notes: without
 * `--yes` it says what would become of each correction and records nothing; with it, every
 * correction is carried to the new notes or asked, and `rebuild --verify` holds.
 */
import { describe, expect, it } from "@effect/vitest"
import type { NoteId } from "@verbatim/domain/Ids"
import { sessionStream } from "@verbatim/domain/Streams"
import { EventStore } from "@verbatim/projections/EventStore"
import { Effect } from "effect"
import { discardNote, moveNote } from "../src/Curation.js"
import { load } from "../src/Sessions.js"
import { normalise, runCli, tempDir } from "./CliHarness.js"
import { modelLayer, record, servicesLayer, sessions } from "./ReplayFixture.js"

const tom = { _tag: "Person", contactId: "person_2", name: "Tom" } as const
const ana = { _tag: "Person", contactId: "person_1", name: "Ana" } as const

/** In session one (v1: Ana [1 2], Ana [3], Tom [4]) the user moves [1 2] to Tom and [4] to Ana, and discards [3]. */
const curate = (env: Record<string, string>) =>
  Effect.gen(function*() {
    const { state } = yield* load(sessions.one)
    const noteOf = (seqs: ReadonlyArray<number>): NoteId =>
      [...state.notes.values()].find((n) => n.sources.map((s) => s.seq).join() === seqs.join())!.noteId
    yield* moveNote(noteOf([1, 2]), tom, null)
    yield* moveNote(noteOf([4]), ana, null)
    yield* discardNote(noteOf([3]), true, null)
  }).pipe(Effect.provide(servicesLayer(env["VERBATIM_DATA_DIR"]!, env["VERBATIM_PROMPT_DIR"]!, modelLayer(env["VERBATIM_CASSETTE_DIR"]!, []))))

const repliesOf = (env: Record<string, string>) =>
  Effect.flatMap(EventStore, (store) => store.readStream(sessionStream(sessions.one))).pipe(
    Effect.map((events) => events.flatMap((e) => e.event._tag === "ReplyQueued" && e.event.questionId !== null ? [e.event] : [])),
    Effect.provide(servicesLayer(env["VERBATIM_DATA_DIR"]!, env["VERBATIM_PROMPT_DIR"]!, modelLayer(env["VERBATIM_CASSETTE_DIR"]!, [])))
  )

const promoteArgs = ["replay", "--prompt", "v2", "--session", sessions.one, "--session", sessions.two, "--promote"]

describe("verbatim replay --promote keeps the user's corrections", () => {
  it.scoped("previews without --yes, then carries each correction or asks, and rebuild --verify holds", () =>
    Effect.gen(function*() {
      const { env } = yield* Effect.flatMap(tempDir("verbatim-promote-"), record)
      yield* curate(env)
      const before = yield* runCli(["accounting", sessions.one], env)
      const preview = yield* runCli(promoteArgs, env)
      expect({ code: preview.code, tail: preview.stdout.split("\n").slice(-5).join("\n") }).toEqual({
        code: 0,
        tail: [
          `session ${sessions.one}: would be promoted; 3 corrections: 2 carried over (2 re-applied, 0 so already), 1 turned into a question, 0 lost`,
          `session ${sessions.two}: would be promoted; 0 corrections: 0 carried over (0 re-applied, 0 so already), 0 turned into questions, 0 lost`,
          "would promote 2 sessions: 3 corrections, 2 carried over, 1 turned into questions, 0 lost",
          "nothing was recorded: run again with --promote --yes to record these plans",
          ""
        ].join("\n")
      })
      expect((yield* runCli(["accounting", sessions.one], env)).stdout).toEqual(before.stdout)

      const promoted = yield* runCli([...promoteArgs, "--yes"], env)
      expect({ code: promoted.code, tail: promoted.stdout.split("\n").slice(-4).join("\n") }).toEqual({
        code: 0,
        tail: [
          `session ${sessions.one}: promoted; 3 corrections: 2 carried over (2 re-applied, 0 so already), 1 turned into a question, 0 lost`,
          `session ${sessions.two}: promoted; 0 corrections: 0 carried over (0 re-applied, 0 so already), 0 turned into questions, 0 lost`,
          "promoted 2 sessions: 3 corrections, 2 carried over, 1 turned into questions, 0 lost",
          ""
        ].join("\n")
      })
      const after = yield* runCli(["accounting", sessions.one], env)
      expect(normalise(after.stdout)).toEqual([
        `session ${sessions.one} (planned), user telegram:100000001, 4 message(s)`,
        "  seq 1 telegram:100000001:1: question q_<id>",
        "  seq 2 telegram:100000001:2: question q_<id>",
        "  seq 3 telegram:100000001:3: note note_<id>, discarded by the user; cut \"remind me on Friday:\"",
        "  seq 4 telegram:100000001:4: note note_<id>",
        ""
      ].join("\n"))
      const asked = yield* repliesOf(env)
      expect(asked.map((r) => ({ text: r.text, buttons: r.buttons.map((b) => b.label) }))).toEqual([{
        text: "After an update, these messages are filed under Ana; you had moved them to Tom. Where do they belong?\n\n" +
          "«Ana starts at the clinic in March.»\n\n«She wants a quiet desk by the window.»",
        buttons: ["Tom", "Ana", "Keep as my own note"]
      }])
      const verify = yield* runCli(["rebuild", "--verify"], env)
      expect({ code: verify.code, stdout: verify.stdout.replace(/\d+ event/, "N event") }).toEqual({
        code: 0,
        stdout: "verified: rebuilding from N event(s) reproduces every table\n"
      })
    }), { timeout: 120_000 })
})

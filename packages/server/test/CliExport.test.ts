/** `verbatim export markdown DIR`: the pages as written, a second run, a person who lost their notes, and a file not ours. */
import { describe, expect, it } from "@effect/vitest"
import type { Event } from "@verbatim/domain/Events"
import * as Store from "@verbatim/projections/Store"
import * as G from "@verbatim/testkit/Given"
import { DateTime, Effect, TestClock } from "effect"
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { runCli, tempDir } from "./CliHarness.js"

const ana = { personId: "person-1", name: "Ana Lima" }
const anaToo = { personId: "person-2", name: "Ana-Lima" }
const zhanna = { personId: "person-3", name: "Жанна" }

/** Append each step a minute after the last, from 2026-01-02T00:00:00Z, so every note's recorded time is exact. */
const record = (dataDir: string, steps: ReadonlyArray<readonly [string, ReadonlyArray<Event>]>, from: number) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(Date.UTC(2026, 0, 2) + from * 60_000)
    for (const step of steps) {
      yield* G.given(step)
      yield* TestClock.adjust("1 minute")
    }
  }).pipe(Effect.provide(Store.layerSqlite({ filename: join(dataDir, "verbatim.db") })), Effect.scoped)

const history: ReadonlyArray<readonly [string, ReadonlyArray<Event>]> = [
  [G.sessionStream("s-1"), [
    G.sessionOpened("s-1"),
    G.messageReceived("s-1", 1, "Ana starts at the clinic on Monday. File under Ana."),
    G.messageReceived("s-1", 2, "She prefers tea."),
    G.messageReceived("s-1", 3, "Buy stamps"),
    G.messageReceived("s-1", 4, "Ana from the gym lent me a book"),
    G.messageReceived("s-1", 5, "Ana's birthday is 3 May")
  ]],
  ["person-1", [G.personAdded("person-1", ana.name)]],
  ["person-2", [G.personAdded("person-2", anaToo.name)]],
  ["person-3", [G.personAdded("person-3", zhanna.name)]],
  [G.sessionStream("s-1"), [G.noteRecorded("s-1", "note-1", [1, 2], { person: ana, directives: [[1, "File under Ana."]] })]],
  [G.sessionStream("s-1"), [G.noteRecorded("s-1", "note-2", [3])]],
  [G.sessionStream("s-1"), [G.noteRecorded("s-1", "note-3", [4], { person: anaToo })]],
  [G.sessionStream("s-1"), [G.noteRecorded("s-1", "note-4", [5], { person: ana })]],
  [G.sessionStream("s-2"), [
    G.sessionOpened("s-2"),
    G.messageReceived("s-2", 1, "Zhanna's flight lands at 9"),
    G.planProduced("s-2", "plan-s2", 1),
    G.noteRecorded("s-2", "note-5", [1], { planId: "plan-s2", person: zhanna })
  ]],
  // The user's own zone (`/tz`), which wins over VERBATIM_DEFAULT_TIMEZONE.
  ["zones", [{ _tag: "TimeZoneSet", user: G.user, zone: "America/Sao_Paulo", setAt: DateTime.unsafeMake("2026-01-02T00:09:00Z") }]]
]

/** A promoted replay of s-2 files its message as the user's own: Жанна has no notes left. */
const replayed: ReadonlyArray<readonly [string, ReadonlyArray<Event>]> = [
  [G.sessionStream("s-2"), [
    G.planProduced("s-2", "plan-s2-v2", 1, ["plan-s2"]),
    G.noteRecorded("s-2", "note-6", [1], { planId: "plan-s2-v2" })
  ]]
]

const user = "telegram-100000001"

const ana1 = `---
name: "Ana Lima"
aliases:
  - "Ana Lima"
person_id: "person-1"
user: "telegram:100000001"
note_count: 2
note_ids:
  - "note-4"
  - "note-1"
updated: 2026-01-02T00:07:00.000Z
time_zone: "America/Sao_Paulo"
verbatim_export: true
---

# Ana Lima

## 1 January 2026, 21:07 (America/Sao_Paulo)

Ana's birthday is 3 May[^n1-1]

[^n1-1]: seq 5 · 2026-01-01T00:00:05.000Z · telegram message p-s-1-5

## 1 January 2026, 21:04 (America/Sao_Paulo)

Ana starts at the clinic on Monday.[^n2-1]

She prefers tea.[^n2-2]

[^n2-1]: seq 1 · 2026-01-01T00:00:01.000Z · telegram message p-s-1-1
[^n2-2]: seq 2 · 2026-01-01T00:00:02.000Z · telegram message p-s-1-2
`

const ana2 = `---
name: "Ana-Lima"
aliases:
  - "Ana-Lima"
person_id: "person-2"
user: "telegram:100000001"
note_count: 1
note_ids:
  - "note-3"
updated: 2026-01-02T00:06:00.000Z
time_zone: "America/Sao_Paulo"
verbatim_export: true
---

# Ana-Lima

## 1 January 2026, 21:06 (America/Sao_Paulo)

Ana from the gym lent me a book[^n1-1]

[^n1-1]: seq 4 · 2026-01-01T00:00:04.000Z · telegram message p-s-1-4
`

const zhannaPage = `---
name: "Жанна"
aliases:
  - "Жанна"
person_id: "person-3"
user: "telegram:100000001"
note_count: 1
note_ids:
  - "note-5"
updated: 2026-01-02T00:08:00.000Z
time_zone: "America/Sao_Paulo"
verbatim_export: true
---

# Жанна

## 1 January 2026, 21:08 (America/Sao_Paulo)

Zhanna's flight lands at 9[^n1-1]

[^n1-1]: seq 1 · 2026-01-01T00:00:01.000Z · telegram message p-s-2-1
`

const unattachedNote2 = `## 1 January 2026, 21:05 (America/Sao_Paulo)

Buy stamps[^n1-1]

[^n1-1]: seq 3 · 2026-01-01T00:00:03.000Z · telegram message p-s-1-3
`

const unattached = (ids: ReadonlyArray<string>, updated: string, notes: string) => `---
name: "Unattached notes"
person_id: null
user: "telegram:100000001"
note_count: ${ids.length}
note_ids:
${ids.map((id) => `  - "${id}"\n`).join("")}updated: ${updated}
time_zone: "America/Sao_Paulo"
verbatim_export: true
---

# Unattached notes

${notes}`

/** Every file under the export folder with its text. */
const readTree = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, encoding: "utf8" }).sort()
      .filter((path) => path.endsWith(".md") || path.endsWith(".txt"))
      .map((path) => [path, readFileSync(join(dir, path), "utf8")])
  )

describe("verbatim export markdown", () => {
  it.scoped("writes a page per person and one of the user's own notes, updates them in place and removes its own stale pages", () =>
    Effect.gen(function*() {
      const data = yield* tempDir("verbatim-data-")
      const out = join(yield* tempDir("verbatim-vault-"), "vault")
      const env = { VERBATIM_DATA_DIR: data, VERBATIM_DEFAULT_TIMEZONE: "Europe/Lisbon" }
      yield* record(data, history, 0)
      expect(yield* runCli(["export", "markdown", out], env)).toEqual({
        code: 0,
        stdout: `exported 5 note(s) to 4 page(s) in ${out}: 4 written, 0 unchanged, 0 removed\n`,
        stderr: ""
      })
      const first = {
        [`${user}/_unattached.md`]: unattached(["note-2"], "2026-01-02T00:05:00.000Z", unattachedNote2),
        [`${user}/ana-lima-2.md`]: ana2,
        [`${user}/ana-lima.md`]: ana1,
        [`${user}/жанна.md`]: zhannaPage
      }
      expect(readTree(out)).toEqual(first)

      // The operator's own file beside the pages is never touched.
      writeFileSync(join(out, user, "my own.md"), "# mine\n")
      expect(yield* runCli(["export", "markdown", out], env)).toEqual({
        code: 0,
        stdout: `exported 5 note(s) to 4 page(s) in ${out}: 0 written, 4 unchanged, 0 removed\n`,
        stderr: ""
      })

      yield* record(data, replayed, 20)
      expect(yield* runCli(["export", "markdown", out], env)).toEqual({
        code: 0,
        stdout: `exported 5 note(s) to 3 page(s) in ${out}: 1 written, 2 unchanged, 1 removed\n`,
        stderr: ""
      })
      expect(readTree(out)).toEqual({
        [`${user}/_unattached.md`]: unattached(
          ["note-6", "note-2"],
          "2026-01-02T00:20:00.000Z",
          `## 1 January 2026, 21:20 (America/Sao_Paulo)

Zhanna's flight lands at 9[^n1-1]

[^n1-1]: seq 1 · 2026-01-01T00:00:01.000Z · telegram message p-s-2-1

${unattachedNote2.replaceAll("n1-", "n2-")}`
        ),
        [`${user}/ana-lima-2.md`]: ana2,
        [`${user}/ana-lima.md`]: ana1,
        [`${user}/my own.md`]: "# mine\n"
      })
    }), { timeout: 120_000 })

  it.scoped("stops before writing anything when a file the export did not write is in a page's place", () =>
    Effect.gen(function*() {
      const data = yield* tempDir("verbatim-data-")
      const out = yield* tempDir("verbatim-vault-")
      yield* record(data, history, 0)
      mkdirSync(join(out, user))
      writeFileSync(join(out, user, "ana-lima.md"), "# Ana, by hand\n")
      expect(yield* runCli(["export", "markdown", out], { VERBATIM_DATA_DIR: data })).toEqual({
        code: 1,
        stdout: "",
        stderr: `verbatim: ${out}/${user}/ana-lima.md exists and was not written by the export; ` +
          "move it, or export to another folder. Nothing was written\n"
      })
      expect(readTree(out)).toEqual({ [`${user}/ana-lima.md`]: "# Ana, by hand\n" })
    }), { timeout: 60_000 })
})

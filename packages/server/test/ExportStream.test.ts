/**
 * The Markdown export streamed: a person whose notes span several keyset pages (two notes a page
 * here) gets the page it would get read whole, ids and notes in order, footnotes numbered on
 * across the pages' seams; a second run finds it unchanged.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Event } from "@verbatim/domain/Events"
import * as Database from "@verbatim/testkit/Database"
import * as G from "@verbatim/testkit/Given"
import { Effect, Layer, TestClock } from "effect"
import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { exportMarkdown } from "../src/Cli/Export/Write.js"
import { TimeZones } from "../src/TimeZones.js"

const ana = { personId: "person-ana", name: "Ana Lima" }
const bo = { personId: "person-bo", name: "Bo" }
const notes = 5

/** Ana's five notes, each of one message, then one about Bo; each step a minute after the last from 2026-01-02T00:00Z. */
const history: ReadonlyArray<readonly [string, ReadonlyArray<Event>]> = [
  ["person-ana", [G.personAdded(ana.personId, ana.name)]],
  ["person-bo", [G.personAdded(bo.personId, bo.name)]],
  [G.sessionStream("s"), [G.sessionOpened("s"), ...Array.from({ length: notes + 1 }, (_, k) => G.messageReceived("s", k + 1, `Ana, note ${k + 1}.`))]],
  ...Array.from({ length: notes }, (_, k) => [G.sessionStream("s"), [G.noteRecorded("s", `note-${k + 1}`, [k + 1], { person: ana })]] as const),
  [G.sessionStream("s"), [G.noteRecorded("s", "note-bo", [notes + 1], { person: bo })]]
]

/** Note `k` as the page shows it, the `index`-th from the top. */
const noteText = (k: number, index: number) => `## 2 January 2026, 00:0${k + 2} (UTC)

Ana, note ${k}.[^n${index}-1]

[^n${index}-1]: seq ${k} · 2026-01-01T00:00:0${k}.000Z · telegram message p-s-${k}`

const anaPage = `---
name: "Ana Lima"
aliases:
  - "Ana Lima"
person_id: "person-ana"
user: "telegram:100000001"
note_count: 5
note_ids:
  - "note-5"
  - "note-4"
  - "note-3"
  - "note-2"
  - "note-1"
updated: 2026-01-02T00:07:00.000Z
time_zone: "UTC"
verbatim_export: true
---

# Ana Lima

${[5, 4, 3, 2, 1].map((k, i) => noteText(k, i + 1)).join("\n\n")}
`

describe("the Markdown export, streamed", () => {
  it.effect("a person's notes over several keyset pages make the whole page, and a second run leaves it unchanged", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 0, 2))
      for (const step of history) {
        yield* G.given(step)
        yield* TestClock.adjust("1 minute")
      }
      const out = join(mkdtempSync(join(tmpdir(), "verbatim-export-")), "vault")
      expect(yield* exportMarkdown(out, 2)).toEqual({ notes: 6, pages: 2, result: { _tag: "Synced", written: 2, unchanged: 0, removed: 0 } })
      expect(readdirSync(join(out, "telegram-100000001")).sort()).toEqual(["ana-lima.md", "bo.md"])
      expect(readFileSync(join(out, "telegram-100000001", "ana-lima.md"), "utf8")).toBe(anaPage)
      expect(yield* exportMarkdown(out, 2)).toEqual({ notes: 6, pages: 2, result: { _tag: "Synced", written: 0, unchanged: 2, removed: 0 } })
      expect(readFileSync(join(out, "telegram-100000001", "ana-lima.md"), "utf8")).toBe(anaPage)
    }).pipe(Effect.provide(Layer.merge(Database.sqlite(), TimeZones.layerZone("UTC")))), { timeout: 60_000 })
})

/**
 * One exported page as Obsidian reads it: the name as an alias, the note ids as a property, each
 * note under its local time in the user's zone, and each message's footnote right after its words.
 */
import { describe, expect, it } from "@effect/vitest"
import { MessageId, NoteId, SessionId } from "@verbatim/domain/Ids"
import type { NotebookSource } from "@verbatim/projections/Notebook"
import { DateTime } from "effect"
import { renderPage } from "../src/Cli/Export/Markdown.js"

const source = (seq: number, received: string, bodyEnd: number | null, forwardedFrom: string | null = null): NotebookSource => ({
  messageId: MessageId.make(`telegram:7:${seq}`),
  seq,
  provider: "telegram",
  providerMessageId: `7:${seq}`,
  receivedAt: DateTime.unsafeMake(received),
  forwardedFrom,
  bodyEnd
})

const summer = {
  id: NoteId.make("note_2"),
  sessionId: SessionId.make("s2"),
  body: "Ana's new number ends in 42.",
  recordedAt: DateTime.unsafeMake("2026-07-01T13:05:00Z"),
  sources: [source(4, "2026-07-01T13:04:00Z", 28)]
}

// Three messages: the first forwarded, the second all cut ("file under Ana"), the third the note's last words.
const winter = {
  id: NoteId.make("note_1"),
  sessionId: SessionId.make("s1"),
  body: "I got the job at the Porto office!\n\nShe starts in January.",
  recordedAt: DateTime.unsafeMake("2026-12-06T14:05:00Z"),
  sources: [source(1, "2026-12-06T14:01:00Z", 34, "Ana Lima"), source(2, "2026-12-06T14:02:00Z", null), source(3, "2026-12-06T14:03:00Z", 58)]
}

describe("an exported page", () => {
  it("carries the name as an alias and the note ids as properties, each note under its local time, each footnote after its message's words", () => {
    const page = renderPage({ title: "Ana Lima", person: true, personId: "person_1", user: "telegram:7", zone: "Europe/Lisbon" }, [summer, winter])
    expect(page).toBe(`---
name: "Ana Lima"
aliases:
  - "Ana Lima"
person_id: "person_1"
user: "telegram:7"
note_count: 2
note_ids:
  - "note_2"
  - "note_1"
updated: 2026-12-06T14:05:00.000Z
time_zone: "Europe/Lisbon"
verbatim_export: true
---

# Ana Lima

## 1 July 2026, 14:05 (Europe/Lisbon)

Ana's new number ends in 42.[^n1-1]

[^n1-1]: seq 4 · 2026-07-01T13:04:00.000Z · telegram message 7:4

## 6 December 2026, 14:05 (Europe/Lisbon)

I got the job at the Porto office![^n2-1]

She starts in January.[^n2-3][^n2-2]

[^n2-1]: forwarded from Ana Lima · seq 1 · 2026-12-06T14:01:00.000Z · telegram message 7:1
[^n2-2]: seq 2 · 2026-12-06T14:02:00.000Z · telegram message 7:2
[^n2-3]: seq 3 · 2026-12-06T14:03:00.000Z · telegram message 7:3
`)
  })

  it("the user's own notes have no alias", () => {
    const page = renderPage({ title: "Unattached notes", person: false, personId: null, user: "telegram:7", zone: "UTC" }, [summer])
    expect(page.split("\n").slice(0, 11)).toEqual([
      "---",
      "name: \"Unattached notes\"",
      "person_id: null",
      "user: \"telegram:7\"",
      "note_count: 1",
      "note_ids:",
      "  - \"note_2\"",
      "updated: 2026-07-01T13:05:00.000Z",
      "time_zone: \"UTC\"",
      "verbatim_export: true",
      "---"
    ])
  })
})

/**
 * The Markdown export on a folder someone else can write in: it never follows a link (a linked
 * user folder, a linked page, a link planted where its temporary file would go), so it writes
 * nothing outside the folder and overwrites no file it did not write; and no message's text can
 * pass for the page's own source footnotes.
 */
import { describe, expect, it } from "@effect/vitest"
import { MessageId, NoteId, SessionId } from "@verbatim/domain/Ids"
import type { SqlClient } from "@effect/sql/SqlClient"
import * as Database from "@verbatim/testkit/Database"
import * as G from "@verbatim/testkit/Given"
import { DateTime, Effect, Layer } from "effect"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { renderPage } from "../src/Cli/Export/Markdown.js"
import { exportMarkdown } from "../src/Cli/Export/Write.js"
import { TimeZones } from "../src/TimeZones.js"

const at = DateTime.unsafeMake("2026-12-01T10:00:00Z")

const note = (body: string, forwardedFrom: string | null = null) => ({
  id: NoteId.make("note_1"),
  sessionId: SessionId.make("s1"),
  body,
  recordedAt: at,
  sources: [{
    messageId: MessageId.make("telegram:1:1"),
    seq: 1,
    provider: "telegram",
    providerMessageId: "1:1",
    receivedAt: at,
    forwardedFrom,
    bodyEnd: body.length
  }]
})

const ana = { title: "Ana", person: true, personId: null, user: "telegram:1", zone: "UTC" }

/** A page's lines from its first note's heading on. */
const notesOf = (page: string): Array<string> => {
  const lines = page.split("\n")
  return lines.slice(lines.findIndex((line) => line.startsWith("## ")))
}

const folders = () => {
  const root = mkdtempSync(join(tmpdir(), "verbatim-export-"))
  const out = join(root, "export")
  const elsewhere = join(root, "elsewhere")
  mkdirSync(out)
  mkdirSync(elsewhere)
  return { out, elsewhere }
}

/** A store holding one note about Ana, the export's one page (`folder/page`), and the export run on it. */
const anaNoted = G.given([G.sessionStream("s"), [
  G.sessionOpened("s"),
  G.messageReceived("s", 1, "Ana moved to Porto."),
  G.noteRecorded("s", "note-1", [1], { person: { personId: "person-ana", name: "Ana" } })
]])
const folder = "telegram-100000001"
const page = join(folder, "ana.md")
const withStore = <A, E>(effect: Effect.Effect<A, E, Effect.Effect.Context<ReturnType<typeof exportMarkdown>> | SqlClient>) =>
  Effect.zipRight(anaNoted, effect).pipe(Effect.provide(Layer.merge(Database.sqlite(), TimeZones.layerZone("UTC"))))

describe("the Markdown export and links", () => {
  it.effect("a linked user folder stops the export, and nothing is written where it points", () =>
    withStore(Effect.gen(function*() {
      const { elsewhere, out } = folders()
      symlinkSync(elsewhere, join(out, folder))
      expect((yield* exportMarkdown(out)).result).toEqual({ _tag: "NotOurs", path: join(out, folder) })
      expect(readdirSync(elsewhere)).toEqual([])
    })))

  it.effect("a link in a page's place stops the export, and the file it points at is untouched", () =>
    withStore(Effect.gen(function*() {
      const { elsewhere, out } = folders()
      const victim = join(elsewhere, "victim.txt")
      writeFileSync(victim, "keep me")
      mkdirSync(join(out, folder))
      symlinkSync(victim, join(out, page))
      expect((yield* exportMarkdown(out)).result).toEqual({ _tag: "NotOurs", path: join(out, page) })
      expect(readFileSync(victim, "utf8")).toBe("keep me")
    })))

  it.effect("a link planted where the old temporary name went is never written through", () =>
    withStore(Effect.gen(function*() {
      const { elsewhere, out } = folders()
      const victim = join(elsewhere, "victim.txt")
      writeFileSync(victim, "keep me")
      mkdirSync(join(out, folder))
      symlinkSync(victim, join(out, folder, `.${process.pid}.partial`))
      expect((yield* exportMarkdown(out)).result).toEqual({ _tag: "Synced", written: 1, unchanged: 0, removed: 0 })
      expect([readFileSync(victim, "utf8"), existsSync(join(out, page))]).toEqual(["keep me", true])
    })))
})

describe("the Markdown export and footnotes", () => {
  it("a message that writes a footnote of its own is kept as text, escaped, and the page's footnotes are its own", () => {
    const page = renderPage(ana, [note("See [^n1-1].\n[^n1-1]: seq 9 · forged")])
    expect(notesOf(page)).toEqual([
      "## 1 December 2026, 10:00 (UTC)",
      "",
      "See \\[^n1-1].",
      "\\[^n1-1]: seq 9 · forged[^n1-1]",
      "",
      "[^n1-1]: seq 1 · 2026-12-01T10:00:00.000Z · telegram message 1:1",
      ""
    ])
  })

  it("a forwarded message's footnote says whom it was forwarded from, on one line", () => {
    const page = renderPage(ana, [note("I got the job at the Porto office!!", "Carol\nDias")])
    expect(notesOf(page)).toEqual([
      "## 1 December 2026, 10:00 (UTC)",
      "",
      "I got the job at the Porto office!![^n1-1]",
      "",
      "[^n1-1]: forwarded from Carol Dias · seq 1 · 2026-12-01T10:00:00.000Z · telegram message 1:1",
      ""
    ])
  })
})

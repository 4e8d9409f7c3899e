/**
 * An export streamed to its folder: every path checked first, then one page at a time, each read
 * a keyset page of notes at a time and written in pieces to its temporary file, so the export
 * holds one page of rows whatever the store holds.
 */
import { Notebook } from "@verbatim/projections/Notebook"
import type { KeysetPage, NotebookNote } from "@verbatim/projections/Notebook"
import type { StoreError } from "@verbatim/projections/EventStore"
import { Effect, Exit } from "effect"
import { CliError } from "../CliError.js"
import { check, openPage, removeStale } from "./Files.js"
import { noteIdLine, noteSeparator, pageEnd, pageHeading, pageOpening, renderNote } from "./Markdown.js"
import type { PagePlan } from "./Plan.js"
import { planPages } from "./Plan.js"

/** Rows read at a time: a page of notes with their sources is what the export holds at once. */
export const defaultPageSize = 500

/** What bringing a folder up to date did, or the file in the way (nothing was written then). */
export type SyncResult =
  | { readonly _tag: "Synced"; readonly written: number; readonly unchanged: number; readonly removed: number }
  | { readonly _tag: "NotOurs"; readonly path: string }

/** What an export did: the notes and pages it found, and how bringing the folder up to date went. */
export interface Exported {
  readonly notes: number
  readonly pages: number
  readonly result: SyncResult
}

/** Each item of every keyset page `read` gives before position `from`, in order. */
const eachOf = <A, E>(
  from: number,
  read: (before: number) => Effect.Effect<KeysetPage<A>, StoreError>,
  f: (item: A) => Effect.Effect<void, E>
): Effect.Effect<void, StoreError | E> =>
  Effect.gen(function*() {
    let before: number | null = from
    do {
      const page: KeysetPage<A> = yield* read(before)
      yield* Effect.forEach(page.items, f, { discard: true })
      before = page.before
    } while (before !== null)
  })

/**
 * A page's text through `write`: the front matter with every note id, then the notes, a keyset
 * page of each at a time, from the page's newest note down (a note filed since it was counted is
 * left for the next run). A page whose notes fit one read takes its ids from them.
 */
const writePage = <E>(page: PagePlan, write: (text: string) => Effect.Effect<void, E>, pageSize: number) =>
  Effect.gen(function*() {
    const model = yield* Notebook
    const first = yield* model.subjectNotes(page.notes, page.newest + 1, pageSize)
    yield* write(pageOpening(page.subject, page.noteCount))
    if (first.before === null) yield* Effect.forEach(first.items, (note) => write(noteIdLine(note.id)), { discard: true })
    else yield* eachOf(page.newest + 1, (before) => model.subjectNoteIds(page.notes, before, pageSize), (id) => write(noteIdLine(id)))
    yield* write(pageHeading(page.subject, page.updated))
    let index = 0
    const writeNote = (note: NotebookNote) => {
      index++
      return write((index > 1 ? noteSeparator : "") + renderNote(note, index, page.subject.zone))
    }
    yield* Effect.forEach(first.items, writeNote, { discard: true })
    if (first.before !== null) yield* eachOf(first.before, (before) => model.subjectNotes(page.notes, before, pageSize), writeNote)
    yield* write(pageEnd)
  })

/**
 * Export every user's notes to `dir`: check every path before writing anything (a file the
 * export did not write in a page's place stops it, `NotOurs`), write each page whose text changed
 * (through a temporary file and a rename, leaving an unchanged page untouched), and remove the
 * pages the export wrote of people who no longer have notes.
 */
export const exportMarkdown = (dir: string, pageSize: number = defaultPageSize) =>
  Effect.gen(function*() {
    const files = <A>(f: () => A) =>
      Effect.try({
        try: f,
        catch: (error) => new CliError({ message: `cannot export to ${dir}: ${error instanceof Error ? error.message : String(error)}` })
      })
    const pages = yield* planPages(pageSize)
    const notes = pages.reduce((n, p) => n + p.noteCount, 0)
    const checked = yield* files(() => check(dir, pages.map((p) => p.path)))
    if (checked._tag === "NotOurs") return { notes, pages: pages.length, result: checked }
    let written = 0
    let unchanged = 0
    for (const page of pages) {
      const outcome = yield* Effect.acquireUseRelease(
        files(() => openPage(dir, page.path)),
        (file) =>
          Effect.zipRight(
            writePage(page, (text) => files(() => file.write(text)), pageSize),
            files(() => file.finish(checked.ours.has(page.path)))
          ),
        (file, exit) => (Exit.isFailure(exit) ? Effect.ignore(files(() => file.abandon())) : Effect.void)
      )
      if (outcome === "written") written++
      else unchanged++
    }
    const removed = yield* files(() => removeStale(dir, checked.ours, new Set(pages.map((p) => p.path))))
    const result: SyncResult = { _tag: "Synced", written, unchanged, removed }
    return { notes, pages: pages.length, result } satisfies Exported
  })

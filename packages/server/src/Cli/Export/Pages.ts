/**
 * Which file each page goes to: one folder per user, one page per person with notes and one for
 * the user's own notes, named by the domain's `Slug`; and how an export brings a folder up to date.
 * These take whole notebooks and pages in memory; the command streams the same pages, one at a
 * time (`Write.ts`, with `Plan.ts` naming them as `pagesOf` does).
 */
import { distinctSlugs } from "@verbatim/domain/Slug"
import type { Notebook } from "@verbatim/projections/Queries/Notebook"
import { join } from "node:path"
import { check, openPage, removeStale } from "./Files.js"
import { renderPage } from "./Markdown.js"

/** The page of a user's own notes; no person's page can take the name, slugs never start with `_`. */
export const unattachedFile = "_unattached.md"

/** Every page of every notebook as file path (relative to the export folder) and text; `zones[i]` is the time zone of `notebooks[i]`'s user. */
export const pagesOf = (notebooks: ReadonlyArray<Notebook>, zones: ReadonlyArray<string>): Map<string, string> => {
  const pages = new Map<string, string>()
  const folders = distinctSlugs(notebooks.map((b) => b.user), "user")
  notebooks.forEach((book, i) => {
    const folder = folders[i]!
    const zone = zones[i] ?? "UTC"
    const names = distinctSlugs(book.people.map((p) => p.name), "person")
    book.people.forEach((person, k) => {
      pages.set(join(folder, `${names[k]}.md`), renderPage({ title: person.name, person: true, personId: person.personId, user: book.user, zone }, person.notes))
    })
    if (book.unattached.length > 0) {
      pages.set(join(folder, unattachedFile), renderPage({ title: "Unattached notes", person: false, personId: null, user: book.user, zone }, book.unattached))
    }
  })
  return pages
}

/** What bringing a folder up to date did, or the file in the way. */
export type SyncResult =
  | { readonly _tag: "Synced"; readonly written: number; readonly unchanged: number; readonly removed: number }
  | { readonly _tag: "NotOurs"; readonly path: string }

/**
 * Write each page whose text changed (through a temporary file and a rename, so a reader never
 * sees half a page), leave the rest untouched, and remove pages the export wrote that no longer
 * have notes. A file the export did not write is never replaced or removed: one in a page's
 * place, or a link where a page or its folder goes, stops the export before anything is written.
 */
export const sync = (dir: string, pages: Map<string, string>): SyncResult => {
  const checked = check(dir, pages.keys())
  if (checked._tag === "NotOurs") return checked
  let written = 0
  let unchanged = 0
  for (const [path, text] of pages) {
    const page = openPage(dir, path)
    try {
      page.write(text)
    } catch (error) {
      page.abandon()
      throw error
    }
    if (page.finish(checked.ours.has(path)) === "written") written++
    else unchanged++
  }
  return { _tag: "Synced", written, unchanged, removed: removeStale(dir, checked.ours, new Set(pages.keys())) }
}

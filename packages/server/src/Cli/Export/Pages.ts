/**
 * Which file each page goes to: one folder per user, one page per person with notes and one for
 * the user's own notes, named by the domain's `Slug`; and how an export brings a folder up to date.
 */
import { distinctSlugs } from "@verbatim/domain/Slug"
import type { Notebook } from "@verbatim/projections/Queries/Notebook"
import { randomBytes } from "node:crypto"
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { isExported, renderPage } from "./Markdown.js"

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
 * Pages the export wrote earlier, found one folder deep under `dir`. Links are never followed: a
 * linked folder or page is not the export's, whatever it points at.
 */
const exportedBefore = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((entry) => {
    const folder = join(dir, entry)
    if (!lstatSync(folder).isDirectory()) return []
    return readdirSync(folder)
      .filter((name) => name.endsWith(".md"))
      .map((name) => join(entry, name))
      .filter((path) => lstatSync(join(dir, path)).isFile() && isExported(readFileSync(join(dir, path), "utf8")))
  })

/** Whether `path` (under `dir`) or the folder it is in is a link: writing there could land anywhere. */
const throughLink = (dir: string, path: string): boolean => [join(dir, dirname(path)), join(dir, path)].some(isLink)

/** Whether a link is at `path` (dangling or not). */
const isLink = (path: string): boolean => {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}

/** `text` written to a new file beside `target` under a random name (never an existing one, never through a link), then renamed over it. */
const replace = (target: string, text: string) => {
  const partial = join(dirname(target), `.${randomBytes(9).toString("base64url")}.partial`)
  const fd = openSync(partial, "wx", 0o600)
  try {
    writeFileSync(fd, text)
  } finally {
    closeSync(fd)
  }
  renameSync(partial, target)
}

/**
 * Write each page whose text changed (through a temporary file and a rename, so a reader never
 * sees half a page), leave the rest untouched, and remove pages the export wrote that no longer
 * have notes. A file the export did not write is never replaced or removed: one in a page's
 * place, or a link where a page or its folder goes, stops the export before anything is written.
 */
export const sync = (dir: string, pages: Map<string, string>): SyncResult => {
  mkdirSync(dir, { recursive: true })
  const ours = new Set(exportedBefore(dir))
  for (const path of pages.keys()) {
    if ((existsSync(join(dir, path)) || isLink(join(dir, path))) && !ours.has(path)) return { _tag: "NotOurs", path: join(dir, path) }
    if (throughLink(dir, path)) return { _tag: "NotOurs", path: join(dir, dirname(path)) }
  }
  let written = 0
  let unchanged = 0
  for (const [path, text] of pages) {
    const target = join(dir, path)
    if (ours.has(path) && readFileSync(target, "utf8") === text) {
      unchanged++
      continue
    }
    mkdirSync(dirname(target), { recursive: true })
    replace(target, text)
    written++
  }
  const stale = [...ours].filter((path) => !pages.has(path))
  for (const path of stale) rmSync(join(dir, path))
  return { _tag: "Synced", written, unchanged, removed: stale.length }
}

/**
 * Which pages an export writes, found from whom each note is about without reading any note's
 * text (`Notebook.notebookPages`): a folder per user, a page per person with notes and one for
 * the user's own notes, each with its note count and newest time, so every path is known, and
 * checked, before a page is written.
 */
import { distinctSlugs } from "@verbatim/domain/Slug"
import type { NotebookPage, NotebookSubject } from "@verbatim/projections/Notebook"
import { Notebook } from "@verbatim/projections/Notebook"
import type { DateTime } from "effect"
import { Effect } from "effect"
import { join } from "node:path"
import { TimeZones } from "../../TimeZones.js"
import type { PageSubject } from "./Markdown.js"

/** The page of a user's own notes; no person's page can take the name, slugs never start with `_`. */
export const unattachedFile = "_unattached.md"

/** One page to write: its file (relative to the export folder), what it is about, and its notes' count and newest time. */
export interface PagePlan {
  readonly path: string
  readonly subject: PageSubject
  /** Which notes the page holds, as the notebook's reads name them. */
  readonly notes: NotebookSubject
  readonly noteCount: number
  readonly updated: DateTime.Utc
  /** The position of its newest note when counted: its notes are read from there, so the page holds what was counted. */
  readonly newest: number
}

/** Every page of every user with notes, in the order they are written; `pageSize` rows are read at a time. */
export const planPages = (pageSize: number) =>
  Effect.gen(function*() {
    const model = yield* Notebook
    const zones = yield* TimeZones
    const users = yield* model.notebookUsers
    const folders = distinctSlugs(users, "user")
    const pages = yield* Effect.forEach(users, (user, i) =>
      Effect.gen(function*() {
        const zone = yield* zones.zoneOf(user)
        const { people, unattached } = yield* model.notebookPages(user, pageSize)
        const names = distinctSlugs(people.map((p) => p.name), "person")
        const plan = (page: NotebookPage, file: string, title: string, person: boolean): PagePlan => ({
          path: join(folders[i]!, file),
          subject: { title, person, personId: page.personId, user, zone },
          notes: page.subject,
          noteCount: page.noteCount,
          updated: page.updated,
          newest: page.newest
        })
        return [
          ...people.map((page, k) => plan(page, `${names[k]}.md`, page.name, true)),
          ...(unattached === null ? [] : [plan(unattached, unattachedFile, "Unattached notes", false)])
        ]
      }))
    return pages.flat()
  })

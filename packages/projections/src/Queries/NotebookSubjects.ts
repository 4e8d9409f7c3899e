/**
 * Whom a user's notes are about, found a keyset page of note owners at a time without reading
 * any note's text: the subjects of a notebook's pages, each with its note count and newest time.
 * And the whole notebook built from them, for a reader of a few notes.
 */
import type { PersonId, UserId } from "@verbatim/domain/Ids"
import { DateTime, Effect } from "effect"
import type { KeysetPage, Notebook, NotebookNote, NotebookOwner, NotebookSubject } from "./Notebook.js"
import { notebookOwners, notebookPeople } from "./Notebook.js"
import { subjectNotePage } from "./NotebookNotes.js"

/** A page of a notebook before its notes are read: whom it is about, how many notes it holds and when the newest was recorded. */
export interface NotebookPage {
  readonly subject: NotebookSubject
  /** Null for a person who was never added to the user's people (and for the user's own notes). */
  readonly personId: PersonId | null
  readonly name: string
  readonly noteCount: number
  readonly updated: DateTime.Utc
  /** The position of its newest note: reading its notes from there leaves out any filed since it was counted. */
  readonly newest: number
}

/** A notebook's pages: people with notes, in the order they were added (those never added last, by name), and the user's own notes. */
export interface NotebookPages {
  readonly people: ReadonlyArray<NotebookPage>
  readonly unattached: NotebookPage | null
}

interface Group {
  readonly subject: NotebookSubject
  readonly personId: PersonId | null
  readonly name: string
  noteCount: number
  updated: DateTime.Utc | null
  newest: number | null
}

/** Count a note into `group`, newest first: the newest time is the first note's unless a later one is newer. */
const count = (group: Group, { position, recordedAt: at }: NotebookOwner) => {
  group.noteCount++
  group.newest = group.newest ?? position
  group.updated = group.updated === null || DateTime.greaterThan(at, group.updated) ? at : group.updated
}

const pageOf = (group: Group): NotebookPage => ({
  subject: group.subject,
  personId: group.personId,
  name: group.name,
  noteCount: group.noteCount,
  updated: group.updated!,
  newest: group.newest!
})

/** The pages of `user`'s notebook, reading whom their notes are about `limit` rows at a time. */
export const notebookPages = (user: UserId, limit: number) =>
  Effect.gen(function*() {
    const groups = new Map<string, Group>()
    for (const p of yield* notebookPeople(user)) {
      groups.set(`id:${p.personId}`, { subject: { _tag: "Person", user, personId: p.personId }, personId: p.personId, name: p.name, noteCount: 0, updated: null, newest: null })
    }
    const own: Group = { subject: { _tag: "Unattached", user }, personId: null, name: "", noteCount: 0, updated: null, newest: null }
    let before: number | null = null
    do {
      const page: KeysetPage<NotebookOwner> = yield* notebookOwners(user, before, limit)
      for (const owner of page.items) {
        if (owner.ownerKind !== "Person") {
          count(own, owner)
          continue
        }
        const name = owner.ownerName ?? ""
        const key = owner.personId === null ? `name:${name}` : `id:${owner.personId}`
        const group = groups.get(key) ?? {
          subject: owner.personId === null ? { _tag: "Named", user, name } : { _tag: "Person", user, personId: owner.personId },
          personId: owner.personId,
          name,
          noteCount: 0,
          updated: null,
          newest: null
        }
        count(group, owner)
        groups.set(key, group)
      }
      before = page.before
    } while (before !== null)
    const unlisted = [...groups.entries()].filter(([key]) => key.startsWith("name:")).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
    const listed = [...groups.entries()].filter(([key]) => key.startsWith("id:"))
    const result: NotebookPages = {
      people: [...listed, ...unlisted].map(([, group]) => group).filter((group) => group.noteCount > 0).map(pageOf),
      unattached: own.noteCount > 0 ? pageOf(own) : null
    }
    return result
  })

/** Every note of a subject, newest first: the whole page at once. */
const allNotes = (subject: NotebookSubject, limit: number) =>
  Effect.gen(function*() {
    const notes: Array<NotebookNote> = []
    let before: number | null = null
    do {
      const page: KeysetPage<NotebookNote> = yield* subjectNotePage(subject, before, limit)
      notes.push(...page.items)
      before = page.before
    } while (before !== null)
    return notes
  })

/** Every note of `user`, grouped by person, all at once. */
export const notebook = (user: UserId) =>
  Effect.gen(function*() {
    const limit = 500
    const pages = yield* notebookPages(user, limit)
    const people = yield* Effect.forEach(pages.people, (page) =>
      Effect.map(allNotes(page.subject, limit), (notes) => ({ personId: page.personId, name: page.name, notes })))
    const unattached = pages.unattached === null ? [] : yield* allNotes(pages.unattached.subject, limit)
    const result: Notebook = { user, people, unattached }
    return result
  })

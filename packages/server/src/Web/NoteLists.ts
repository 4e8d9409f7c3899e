/**
 * The lists of notes on a person's page and the own page: a page of notes newest first, then a
 * page of the discarded ones, each with a link to the older ones (keyset by position, so an old
 * page costs what the first does).
 */
import type { Note } from "@verbatim/domain/ApiResponses"
import type { NoteId } from "@verbatim/domain/Ids"
import type { Page } from "@verbatim/projections/Notebook"
import type { NewestOptions } from "@verbatim/projections/Queries/Lists"
import { Effect } from "effect"
import { type Html, html } from "./Html.js"
import { query } from "./Routing.js"
import { timeAt } from "./Time.js"

/** How many notes a list shows at a time. */
export const notesShown = 50

/** What a page lists: a page of live notes and a page of discarded ones (null: not on this page). */
export interface NotesShown {
  readonly live: Page<Note> | null
  readonly discarded: Page<Note> | null
  /** The page's address without a cursor; the older pages' links add theirs to it. */
  readonly path: string
  /** Whether this page follows another: its list starts below a cursor. */
  readonly older: boolean
}

/** A cursor from the address: a note's position, digits only; anything else asks for the first page. */
const cursorOf = (value: string) => (/^[0-9]{1,15}$/.test(value) ? value : undefined)

/**
 * The notes the address asks for, read by `read`: `?before=` pages the live notes alone,
 * `?discarded_before=` the discarded ones alone; without either both lists start at the newest.
 */
export const notesAsked = <E, R>(path: string, read: (options: NewestOptions) => Effect.Effect<Page<Note>, E, R>) =>
  Effect.gen(function*() {
    const before = cursorOf(yield* query("before"))
    const discardedBefore = cursorOf(yield* query("discarded_before"))
    const live = discardedBefore === undefined ? yield* read({ limit: notesShown, before }) : null
    const discarded = before === undefined ? yield* read({ limit: notesShown, discarded: true, before: discardedBefore }) : null
    return { live, discarded, path, older: before !== undefined || discardedBefore !== undefined } satisfies NotesShown
  })

/** Every note a page lists, live and discarded. */
export const notesListed = (shown: NotesShown): ReadonlyArray<Note> => [...(shown.live?.items ?? []), ...(shown.discarded?.items ?? [])]

/** Whom a listed note's forwarded words came from, by note id (`forwardsOf`). */
export type Forwards = ReadonlyMap<NoteId, ReadonlyArray<string>>

/** A note's line saying it holds words forwarded from others: they are not the sender's own news. */
const forwardedLine = (names: ReadonlyArray<string> | undefined): Html | null =>
  names === undefined ? null : html`<p class="muted" data-forwarded>Holds words forwarded from ${names.join(", ")}</p>`

/** Notes, each with its time (read in `zone`) and sources, linked to its audit. */
export const noteList = (notes: ReadonlyArray<Note>, zone: string, which: "live" | "discarded" = "live", forwards: Forwards = new Map()): Html =>
  html`<ul class="list" data-notes="${which}">${
    notes.map((n) =>
      html`<li>${forwardedLine(forwards.get(n.id))}<div class="body">${n.body}</div><p class="muted"><a href="/notes/${n.id}">${timeAt(n.recordedAt, zone)} · ${n.sources.length} ${
        n.sources.length === 1 ? "message" : "messages"
      } · where each word came from</a></p></li>`
    )
  }</ul>`

const olderLink = (path: string, key: "before" | "discarded_before", cursor: string | null, label: string): Html | null =>
  cursor === null ? null : html`<p><a href="${path}?${key}=${cursor}" data-older>${label}</a></p>`

/** The page's lists: its notes with a link to older ones, then its discarded ones with theirs; on an older page, a link back to the newest. */
export const pagedNoteLists = (shown: NotesShown, zone: string, forwards: Forwards = new Map()): Html =>
  html`${
    shown.live === null || shown.live.items.length === 0 ? null : html`${noteList(shown.live.items, zone, "live", forwards)}${
      olderLink(shown.path, "before", shown.live.nextCursor, "Older notes")
    }`
  }
${
    shown.discarded === null || shown.discarded.items.length === 0 ? null : html`<h2>Discarded</h2><p class="muted">Open one to restore it.</p>${
      noteList(shown.discarded.items, zone, "discarded", forwards)
    }${olderLink(shown.path, "discarded_before", shown.discarded.nextCursor, "Older discarded notes")}`
  }
${shown.older ? html`<p><a href="${shown.path}" data-newest>Newest notes</a></p>` : null}`

/** What a page's count line adds about which of the notes it lists. */
export const whichShown = (shown: NotesShown): string =>
  shown.live === null ? ", older discarded ones shown" : shown.older ? ", older ones shown" : shown.live.nextCursor === null ? "" : `, the newest ${shown.live.items.length} shown`

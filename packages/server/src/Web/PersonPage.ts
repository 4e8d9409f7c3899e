/** A person's page: their notes, newest first, their discarded notes, the forms that change them and what is held about them. */
import type { Person } from "@verbatim/domain/ApiResponses"
import { personForms } from "./CurationForms.js"
import { forgetPersonSection } from "./ForgetPages.js"
import { type Html, html } from "./Html.js"
import { mergedInList, undoForm } from "./MergePages.js"
import { type Forwards, type NotesShown, pagedNoteLists, whichShown } from "./NoteLists.js"

/** What the person page shows besides the person and their notes. */
export interface PersonExtras {
  /** The user's people, for the merge form. */
  readonly people: ReadonlyArray<Person>
  readonly csrf: string
  /** The viewer's time zone, that times are read in. */
  readonly zone: string
  readonly notice: string
  /** Whom the listed notes' forwarded words came from. */
  readonly forwards?: Forwards
  /** The people merged into this one, each of whose merges may be undone. */
  readonly mergedIn?: ReadonlyArray<{ readonly id: string; readonly name: string }>
  /** The person a merge just brought here, whose merge the notice offers to undo. */
  readonly undo?: { readonly id: string; readonly name: string } | null
}

/** What the last change did; after a merge, with the button that undoes it. */
const notice = (extras: PersonExtras): Html | null => {
  if (extras.notice === "") return null
  if (extras.undo == null) return html`<p role="status" class="notice">${extras.notice}</p>`
  return html`<div role="status" class="notice undoable">${extras.notice} ${undoForm(extras.undo, extras.csrf, "Undo")}</div>`
}

/** What the person page says is held about them: the two downloads of the copy (`PersonCopy.ts`) and what it holds; then the way to forget them. */
const heldSection = (person: Person): Html =>
  html`<section data-held>
<h2>What I hold about ${person.name}</h2>
<p class="muted">A copy of every note filed under ${person.name}, those of people merged into them and discarded ones included, each with the messages it was made from quoted exactly, their edits and attachments, the instructions cut, how it was filed and every change made to it.</p>
<p><a href="/people/${person.id}/export.md" download>Download as Markdown</a> · <a href="/people/${person.id}/export.json" download>Download as JSON</a></p>
</section>
${forgetPersonSection(person.id, person.name)}`

/** A page of one person's notes, newest first, each linked to its audit, and of their discarded notes; then the forms and what is held about them. */
export const personPage = (person: Person, notes: NotesShown, extras: PersonExtras): Html =>
  html`<h1>${person.name}</h1>
${notice(extras)}
<p class="muted">${person.noteCount} ${person.noteCount === 1 ? "note" : "notes"}${whichShown(notes)}</p>
${pagedNoteLists(notes, extras.zone, extras.forwards)}
${mergedInList(person, extras.mergedIn ?? [], extras.csrf)}
${personForms(person, extras.people, extras.csrf)}
${heldSection(person)}`

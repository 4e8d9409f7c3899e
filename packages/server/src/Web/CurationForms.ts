/**
 * The forms that curate: on a note, move it, split it before one of its messages, discard or
 * restore it, with what was done to it so far; on a person, rename them or merge them into
 * another. Each posts with the page's CSRF token and works without JavaScript.
 */
import type { Person } from "@verbatim/domain/ApiResponses"
import type { CurationStep, NoteAuditView } from "@verbatim/projections/Notebook"
import { type Html, html } from "./Html.js"
import { timeAt } from "./Time.js"

const token = (csrf: string) => html`<input type="hidden" name="csrf" value="${csrf}">`

const stepText = (step: CurationStep): Html => {
  switch (step._tag) {
    case "Moved":
      return html`moved to ${step.to._tag === "Person" ? step.to.name : "your own notes"}`
    case "SplitOff":
      return html`split: message${step.seqs.length === 1 ? "" : "s"} ${step.seqs.join(", ")} became <a href="/notes/${step.into}">another note</a>`
    case "SplitFrom":
      return html`split from <a href="/notes/${step.from}">another note</a>`
    case "Discarded":
      return html`discarded`
    case "Restored":
      return html`restored`
  }
}

/** A change an update carried over from the note the user had made it on. */
const carried = (step: CurationStep): Html =>
  "carriedFrom" in step && step.carriedFrom !== null
    ? html` <span class="muted">(your change from before an update, kept)</span>`
    : html``

/** What its user did to the note, oldest first, each at its time in `zone`. */
export const history = (audit: NoteAuditView, zone: string): Html =>
  audit.curation.length === 0
    ? html``
    : html`<h2>Changes you made</h2><ol class="list" data-history>${audit.curation.map((s) => html`<li>${timeAt(s.at, zone)}: ${stepText(s)}${carried(s)}</li>`)}</ol>`

/**
 * The note's forms; a discarded note offers only its restore. `people` are those the move offers to
 * choose (the owner's most active); anyone else is found by the name typed.
 */
export const noteForms = (audit: NoteAuditView, people: ReadonlyArray<Person>, csrf: string): Html => {
  const id = audit.note.id
  if (audit.discardedAt !== null) {
    return html`<form method="post" action="/notes/${id}/restore" class="curate" data-form="restore">${token(csrf)}<button type="submit">Restore this note</button></form>`
  }
  const current = audit.note.personId
  const others = people.filter((p) => p.id !== current)
  const later = audit.sources.slice(1)
  return html`<h2>Change it</h2>
<form method="post" action="/notes/${id}/move" class="curate" data-form="move">${token(csrf)}
<label for="move-to">File under</label>
<select id="move-to" name="to">${others.map((p) => html`<option value="person:${p.id}">${p.name}</option>`)}${
    current === null ? null : html`<option value="own">My own notes</option>`
  }<option value="named">Someone else, named below</option><option value="new">A new person, named below</option></select>
<label for="move-name">Their name</label>
<input id="move-name" name="name" autocomplete="off">
<button type="submit">Move</button>
</form>
${
    later.length === 0 ? null : html`<form method="post" action="/notes/${id}/split" class="curate" data-form="split">${token(csrf)}
<label for="split-at">Split before</label>
<select id="split-at" name="atSeq">${later.map((s) => html`<option value="${s.seq}">message ${s.seq}: ${s.text.slice(0, 40)}${s.text.length > 40 ? "…" : ""}</option>`)}</select>
<button type="submit">Split</button>
</form>`
  }
<form method="post" action="/notes/${id}/discard" class="curate" data-form="discard">${token(csrf)}<button type="submit">Discard this note</button>
<span class="muted">Its messages stay in the log and the session's accounting; you can restore it.</span></form>`
}

/**
 * A person's forms: a new name, or merging them into another of the user's people, chosen from
 * `people` (none is at first) or found by the name typed, and then confirmed.
 */
export const personForms = (person: Person, people: ReadonlyArray<Person>, csrf: string): Html => {
  const others = people.filter((p) => p.id !== person.id)
  return html`<h2>Change</h2>
<form method="post" action="/people/${person.id}/rename" class="curate" data-form="rename">${token(csrf)}
<label for="rename-name">Name</label>
<input id="rename-name" name="name" value="${person.name}" required autocomplete="off">
<button type="submit">Rename</button>
</form>
${
    others.length === 0 ? null : html`<form method="post" action="/people/${person.id}/merge" class="curate" data-form="merge">${token(csrf)}
<label for="merge-into">Same person as</label>
<select id="merge-into" name="into"><option value="" selected>Choose a person&hellip;</option>${others.map((p) => html`<option value="${p.id}">${p.name}</option>`)}</select>
<label for="merge-name">or type their name</label>
<input id="merge-name" name="name" autocomplete="off">
<button type="submit">Merge&hellip;</button>
</form>`
  }`
}

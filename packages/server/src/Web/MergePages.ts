/**
 * Merging people from the pages: the confirmation a merge asks for, naming both people and their
 * notes, whose form does the merge; and the way back, an "Undo" beside the notice a merge leaves
 * and beside each person merged in, on the page of the person they joined.
 */
import type { Person } from "@verbatim/domain/ApiResponses"
import { PersonId } from "@verbatim/domain/Ids"
import { Notebook } from "@verbatim/projections/Notebook"
import { Effect, Option } from "effect"
import { require } from "../OperatorReads.js"
import { type Html, html } from "./Html.js"
import { param, query } from "./Routing.js"
import * as SignIn from "./SignIn.js"
import { signedIn } from "./Viewer.js"

const notes = (person: Person) => `${person.noteCount} ${person.noteCount === 1 ? "note" : "notes"}`

/** What a merge of `from` into `into` will do, as the confirmation says it. */
export const mergeQuestion = (from: Person, into: Person) => ({
  question: `Merge ${from.name} (${notes(from)}) into ${into.name} (${notes(into)})?`,
  says: `${from.name}'s notes will be filed under ${into.name}, and a message that names ${from.name} later will be too. ` +
    `You can undo it from ${into.name}'s page: ${from.name} gets back the notes that were theirs.`
})

/** The confirmation: what the merge does, one button that merges and one link that leaves things as they are. */
export const confirmMergePage = (from: Person, into: Person, csrf: string): Html => {
  const { question, says } = mergeQuestion(from, into)
  return html`<h1>${question}</h1>
<p data-merging>${says}</p>
<form method="post" action="/people/${from.id}/merge" class="curate" data-form="confirm-merge"><input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="into" value="${into.id}"><input type="hidden" name="confirmed" value="yes">
<button type="submit">Merge ${from.name} into ${into.name}</button>
<a href="/people/${from.id}">Cancel</a>
</form>`
}

/** A button that undoes the merge that took `person` away. */
export const undoForm = (person: { readonly id: string; readonly name: string }, csrf: string, label: string): Html =>
  html`<form method="post" action="/people/${person.id}/unmerge" class="curate undo" data-form="unmerge"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" aria-label="Undo the merge of ${person.name}">${label}</button></form>`

/** The people merged into `person`, each with the way to undo their merge. */
export const mergedInList = (person: Person, mergedIn: ReadonlyArray<{ readonly id: string; readonly name: string }>, csrf: string): Html =>
  mergedIn.length === 0 ? html`` : html`<h2>Merged into ${person.name}</h2>
<ul class="list merged" data-merged-in>${mergedIn.map((p) => html`<li>${p.name} ${undoForm(p, csrf, "Undo")}</li>`)}</ul>`

/** `GET /people/:id/merge?into=…`: the confirmation of a merge, for two people of one user the viewer may see, neither merged away. */
export const confirmMerge = signedIn("Merge two people", "people", ({ csrf, subject }) =>
  Effect.gen(function*() {
    const read = yield* Notebook
    const visible = (id: PersonId) =>
      Effect.map(Effect.all([read.person(id), read.mergedInto(id)]), ([person, merged]) =>
        Option.filter(person, (p) => Option.isNone(merged) && SignIn.maySee(subject, p.user)))
    const from = yield* visible(PersonId.make(yield* param("id")))
    const into = yield* visible(PersonId.make(yield* query("into")))
    if (Option.isNone(from) || Option.isNone(into) || from.value.user !== into.value.user || from.value.id === into.value.id) return Option.none()
    yield* require(subject, { user: from.value.user, kind: "person", ids: [from.value.id, into.value.id] })
    return Option.some(confirmMergePage(from.value, into.value, csrf))
  }), "person")

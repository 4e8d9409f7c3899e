/**
 * Curation from the pages: each form runs the same command as the API (`Curation`), as the
 * signed-in user (who may change only their own notes and people; the operator anyone's), checked
 * against the page's CSRF token. Done, it goes back to the note or person with what happened;
 * what is not there, or not theirs, is a 404.
 */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { Answer } from "@verbatim/domain/Events"
import { NoteId, PersonId } from "@verbatim/domain/Ids"
import type { StoreError } from "@verbatim/projections/EventStore"
import { Notebook } from "@verbatim/projections/Notebook"
import { Effect, Option, Schema } from "effect"
import * as Curation from "../Curation.js"
import { namedPerson } from "./NamedPerson.js"
import * as SignIn from "./SignIn.js"

const Csrf = { csrf: Schema.String }
const MoveForm = Schema.Struct({ ...Csrf, to: Schema.String, name: Schema.optionalWith(Schema.String, { default: () => "" }) })
const SplitForm = Schema.Struct({ ...Csrf, atSeq: Schema.NumberFromString.pipe(Schema.int(), Schema.positive()) })
const RenameForm = Schema.Struct({ ...Csrf, name: Schema.String })
/**
 * The person to merge into ("" when none was chosen from the list), or the name typed for them;
 * `confirmed` once the confirmation was answered.
 */
const MergeForm = Schema.Struct({
  ...Csrf,
  into: Schema.String,
  name: Schema.optionalWith(Schema.String, { default: () => "" }),
  confirmed: Schema.optionalWith(Schema.Literal("yes"), { exact: true })
})
export const CsrfForm = Schema.Struct(Csrf)

/** Back to `path`, saying what happened. */
export const back = (path: string, notice: string) =>
  HttpServerResponse.redirect(`${path}${path.includes("?") ? "&" : "?"}notice=${encodeURIComponent(notice)}`, { status: 303 })

/** A form's handler: sign-in and CSRF checked, the form decoded, `run` given the path's id, the form and the asker; it answers. */
export const posted = <A, I extends { readonly csrf: string }, E, R>(
  form: Schema.Schema<A & { readonly csrf: string }, I>,
  run: (id: string, form: A, asker: SignIn.Subject) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const who = yield* SignIn.current
    if (Option.isNone(who)) return yield* HttpServerResponse.redirect(`/signin?next=${encodeURIComponent(request.url)}`, { status: 303 })
    const body = yield* HttpServerRequest.schemaBodyUrlParams(form)
    const keys = yield* SignIn.WebKeys
    if (!keys.isCsrf(who.value.cookie, body.csrf)) return yield* HttpServerResponse.text("Forbidden: a stale or missing form token", { status: 403 })
    return yield* run((yield* HttpRouter.params)["id"] ?? "", body, who.value.subject)
  })

/** What a refused curation answers: a 404 for what is not there, otherwise back to `path` saying why nothing changed. */
const refused = (path: string) => (e: Curation.CurationRefused) =>
  e.reason === "missing" ? HttpServerResponse.text("Not found", { status: 404 }) : back(path, `Nothing changed: ${e.detail}.`)

/** What a curation answers: where to go and what to say, or what refused it (a 404 for what is not there). */
const answering = <A>(
  run: (id: string, form: A, asker: SignIn.Subject) => Effect.Effect<readonly [path: string, notice: string], Curation.CurationRefused | StoreError, Curation.Services>,
  refusedAt: (id: string) => string
) =>
(id: string, body: A, subject: SignIn.Subject) =>
  run(id, body, subject).pipe(Effect.flatMap(([path, notice]) => back(path, notice)), Effect.catchTag("CurationRefused", refused(refusedAt(id))))

/** A curation form's handler (see `posted`): `run` answers where to go and what to say. */
const curating = <A, I extends { readonly csrf: string }>(
  form: Schema.Schema<A & { readonly csrf: string }, I>,
  run: (id: string, form: A, asker: SignIn.Subject) => Effect.Effect<readonly [path: string, notice: string], Curation.CurationRefused | StoreError, Curation.Services>,
  refusedAt: (id: string) => string
) => posted(form, answering(run, refusedAt))

/** The asker of a command from the pages: the user signed in, or null for the operator. */
export const asker = (subject: SignIn.Subject) => SignIn.userOf(subject) ?? null

/** Where the move form files the note: a person from its list, one named in its field (`named`), the own notes, or a new person. */
const target = (noteId: NoteId, form: typeof MoveForm.Type, subject: SignIn.Subject) =>
  Effect.gen(function*() {
    if (form.to === "own") return { _tag: "Unattached" } satisfies Answer
    if (form.to.startsWith("person:")) return { _tag: "Person", contactId: form.to.slice("person:".length), name: "" } satisfies Answer
    if (form.to !== "named") return { _tag: "Person", contactId: null, name: form.name } satisfies Answer
    const note = Option.filter(yield* Effect.flatMap(Notebook, (read) => read.note(noteId)), (n) => SignIn.maySee(subject, n.user))
    if (Option.isNone(note)) return yield* new Curation.CurationRefused({ reason: "missing", detail: "no such note" })
    return { _tag: "Person", contactId: yield* namedPerson(note.value.user, form.name), name: "" } satisfies Answer
  })

export const moveNote = curating(MoveForm, (id, form, subject) =>
  Effect.gen(function*() {
    yield* Curation.moveNote(NoteId.make(id), yield* target(NoteId.make(id), form, subject), asker(subject))
    return [`/notes/${id}`, "Moved."] as const
  }), (id) => `/notes/${id}`)

export const splitNote = curating(SplitForm, (id, form, subject) =>
  Effect.map(Curation.splitNote(NoteId.make(id), form.atSeq, asker(subject)), (newNoteId) =>
    [`/notes/${newNoteId}`, `Split: this is the new note, from message ${form.atSeq} on.`] as const), (id) => `/notes/${id}`)

export const discardNote = curating(CsrfForm, (id, _form, subject) =>
  Effect.as(Curation.discardNote(NoteId.make(id), true, asker(subject)), [`/notes/${id}`, "Discarded. Its messages are kept; restore it any time."] as const), (id) => `/notes/${id}`)

export const restoreNote = curating(CsrfForm, (id, _form, subject) =>
  Effect.as(Curation.discardNote(NoteId.make(id), false, asker(subject)), [`/notes/${id}`, "Restored."] as const), (id) => `/notes/${id}`)

export const renamePerson = curating(RenameForm, (id, form, subject) =>
  Effect.as(Curation.renamePerson(PersonId.make(id), form.name, asker(subject)), [`/people/${id}`, "Renamed."] as const), (id) => `/people/${id}`)

/**
 * The merge form: with no one chosen it changes nothing; chosen, it asks first (the confirmation,
 * `MergePages.ts`); confirmed, it merges and goes to whom they joined, where the notice offers the undo.
 */
export const mergePeople = posted(MergeForm, (id, form, subject) => {
  if (form.into === "" && form.name.trim() !== "") {
    return intoNamed(PersonId.make(id), form.name, subject).pipe(
      Effect.flatMap((into) => HttpServerResponse.redirect(`/people/${id}/merge?into=${encodeURIComponent(into)}`, { status: 303 })),
      Effect.catchTag("CurationRefused", refused(`/people/${id}`))
    )
  }
  if (form.into === "") return back(`/people/${id}`, "Nothing changed: choose the person they are the same as.")
  if (form.confirmed === undefined) return HttpServerResponse.redirect(`/people/${id}/merge?into=${encodeURIComponent(form.into)}`, { status: 303 })
  return answering(() =>
    Effect.as(Curation.mergePeople(PersonId.make(id), PersonId.make(form.into), asker(subject)), [
      `/people/${form.into}?undo=${encodeURIComponent(id)}`,
      "Merged: their notes are here now."
    ] as const), () => `/people/${id}`)(id, form, subject)
})

/** The person a merge form names by typing, among the people of whom `from` is (whom the asker may see), `from` aside. */
const intoNamed = (from: PersonId, typed: string, subject: SignIn.Subject) =>
  Effect.gen(function*() {
    const person = Option.filter(yield* Effect.flatMap(Notebook, (read) => read.person(from)), (p) => SignIn.maySee(subject, p.user))
    if (Option.isNone(person)) return yield* new Curation.CurationRefused({ reason: "missing", detail: "no such person" })
    return yield* namedPerson(person.value.user, typed, from)
  })

/** Undo the merge that took the person away: back on their own page, with their notes. */
export const unmergePeople = curating(CsrfForm, (id, _form, subject) =>
  Effect.as(Curation.unmergePeople(PersonId.make(id), asker(subject)), [`/people/${id}`, "Merge undone: the notes that were theirs are back here."] as const), (id) => `/people/${id}`)

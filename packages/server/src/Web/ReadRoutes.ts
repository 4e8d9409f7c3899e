/**
 * The read pages' routes: people, own notes, a person, a note, questions and search. A user sees
 * their own; the operator their own (`web:operator`) and other users' as `VERBATIM_OPERATOR_READS`
 * says: under `none` their counts and shapes (a person or note of theirs is a 403 page), under
 * `audited` their text with each page recorded as a read of each user's shown, under `all` all.
 */
import { HttpServerResponse } from "@effect/platform"
import { notReadMessage } from "@verbatim/domain/OperatorReads/Mode"
import { MessageId, NoteId, PersonId } from "@verbatim/domain/Ids"
import * as Withheld from "@verbatim/domain/OperatorReads/Withheld"
import { Notebook } from "@verbatim/projections/Notebook"
import { Effect, Option } from "effect"
import { OperatorReads, require, scope } from "../OperatorReads.js"
import { forgottenAt } from "./ForgetRoutes.js"
import { notesAsked, notesListed, type NotesShown } from "./NoteLists.js"
import { notePage, quoteMarkOf } from "./NotePage.js"
import { ownPage, peoplePage, questionsPage, searchPage } from "./Pages.js"
import { personPage } from "./PersonPage.js"
import { holdsFolded } from "@verbatim/domain/Fold"
import { forwardsOf } from "@verbatim/projections/Queries/Views"
import { param, query } from "./Routing.js"
import * as SignIn from "./SignIn.js"
import { signedIn } from "./Viewer.js"

/** The people page lists this many, the most recently active first; the move and merge forms offer as many to choose. */
const peopleShown = 500

/** Why the operator's list leaves other users' text out, when it does. */
const limited = (subject: SignIn.Subject) =>
  Effect.map(OperatorReads, ({ mode }) => (subject._tag === "Operator" && mode === "none" ? notReadMessage : null))

/** `/`: everyone with notes the viewer reads, matching the name asked for; other users' as counts when the operator does not read them. */
export const people = signedIn("People", "people", ({ subject }) =>
  Effect.gen(function*() {
    const q = (yield* query("q")).trim()
    const read = yield* Notebook
    const user = SignIn.userOf(subject)
    const all = yield* read.peopleByActivity({ limit: peopleShown, user })
    // A name is looked for among all the people, not only those the list shows.
    const among = q === "" ? [] : (yield* read.peopleNamed(user)).filter((p) => holdsFolded(p.name, q)).map((p) => p.id)
    const matching = q === "" ? all : among.length === 0 ? [] : yield* read.peopleByActivity({ limit: peopleShown, user, among })
    const shown = yield* Effect.flatMap(OperatorReads, (reads) => reads.shown(subject, matching.map((p) => ({ user: p.user, kind: "people", ids: [p.id] }))))
    // Other users' people are counted whatever the name asked for: a name is what is not read.
    const others = all.filter((p) => !shown(p.user)).map(Withheld.person)
    return Option.some(peoplePage(matching.filter((p) => shown(p.user)), q, subject._tag === "Operator", others, yield* query("notice")))
  }))

/** `/own`: the viewer's own notes; the operator's are everyone's unless they do not read other users'. */
export const own = signedIn("Own notes", "own", ({ subject, zone }) =>
  Effect.gen(function*() {
    const read = yield* Notebook
    const user = yield* scope(subject, undefined)
    const asked = yield* notesAsked("/own", (options) => read.ownNotes(user, options))
    const shown = yield* Effect.flatMap(OperatorReads, (reads) =>
      reads.shown(subject, notesListed(asked).map((n) => ({ user: n.user, kind: "own-notes", ids: [n.id] }))))
    const visible = (page: NotesShown["live"]) => (page === null ? null : { ...page, items: page.items.filter((n) => shown(n.user)) })
    const notes = { ...asked, live: visible(asked.live), discarded: visible(asked.discarded) }
    const forwards = yield* forwardsOf(notesListed(notes).map((n) => n.id))
    return Option.some(ownPage(notes, zone, yield* limited(subject), yield* query("notice"), forwards))
  }))

/**
 * A route about the person in the path, `suffix` after their address: one merged away leads (303)
 * to the same address under the person they joined, for a signed-in viewer who may see them.
 */
export const aboutPerson = <A, E, R>(suffix: string, route: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Effect.map(param("id"), PersonId.make), (id) =>
    Effect.gen(function*() {
      const read = yield* Notebook
      const who = yield* SignIn.current
      const into = Option.isNone(who) ? Option.none() : yield* Effect.flatMap(read.mergedInto(id), (merged) =>
        Option.isNone(merged) ? Effect.succeedNone : read.person(merged.value))
      if (Option.isSome(who) && Option.isSome(into) && SignIn.maySee(who.value.subject, into.value.user)) {
        return yield* HttpServerResponse.redirect(`/people/${into.value.id}${suffix}`, { status: 303 })
      }
      return yield* route
    }))

/** `/people/:id`: a person's notes, or (merged away) the person they joined; one forgotten says so. */
export const person = aboutPerson("", signedIn("Person", "people", ({ csrf, subject, zone }) =>
  Effect.gen(function*() {
    const read = yield* Notebook
    const id = PersonId.make(yield* param("id"))
    const person = Option.filter(yield* read.person(id), (p) => SignIn.maySee(subject, p.user))
    if (Option.isNone(person)) return yield* forgottenAt("person", id, { subject, zone })
    const notes = yield* notesAsked(`/people/${id}`, (options) => read.newestNotes(id, options))
    yield* require(subject, { user: person.value.user, kind: "person", ids: [id, ...notesListed(notes).map((n) => n.id)] })
    const people = yield* read.peopleByActivity({ limit: peopleShown, user: person.value.user })
    const undoing = yield* query("undo")
    const forwards = yield* forwardsOf(notesListed(notes).map((n) => n.id))
    const mergedIn = (yield* read.personNames(id)).mergedIn
    const undo = mergedIn.find((p) => p.id === undoing) ?? null
    return Option.some(personPage(person.value, notes, { people, csrf, zone, notice: yield* query("notice"), forwards, mergedIn, undo }))
  }), "person"))

/** `/notes/:id`: a note and its audit, with the forms that curate and forget it; one the viewer had forgotten says so. */
export const note = signedIn("Note", "people", ({ csrf, subject, zone }) =>
  Effect.gen(function*() {
    const read = yield* Notebook
    const id = NoteId.make(yield* param("id"))
    const audit = Option.filter(yield* read.noteAudit(id), (a) => SignIn.maySee(subject, a.note.user))
    if (Option.isNone(audit)) return yield* forgottenAt("note", id, { subject, zone })
    yield* require(subject, { user: audit.value.note.user, kind: "note", ids: [audit.value.note.id] })
    const people = yield* read.peopleByActivity({ limit: peopleShown, user: audit.value.note.user })
    return Option.some(notePage(audit.value, people, { csrf, zone, notice: yield* query("notice"), mark: quoteMarkOf(yield* query("mark")) }))
  }), "note")

/** `/questions`: the open questions; other users' without their text when the operator does not read it. */
export const questions = signedIn("Questions", "questions", ({ csrf, subject }) =>
  Effect.gen(function*() {
    const open = yield* Effect.flatMap(Notebook, (read) => read.questions({ limit: 200, status: "open", user: SignIn.userOf(subject) }))
    const shown = yield* Effect.flatMap(OperatorReads, (reads) => reads.shown(subject, open.items.map((q) => ({ user: q.user, kind: "questions", ids: [q.id] }))))
    const listed = open.items.map((q) => (shown(q.user) ? q : Withheld.question(q)))
    return Option.some(questionsPage(listed, csrf, yield* query("notice")))
  }))

/** `/search`: the viewer's messages holding every word; the operator's own alone when they do not read other users'. */
export const search = signedIn("Search", "search", ({ subject }) =>
  Effect.gen(function*() {
    const q = yield* query("q")
    const before = yield* query("before")
    const options = { limit: 50, before: before === "" ? undefined : MessageId.make(before) }
    const { hits, next } = yield* Effect.flatMap(Notebook, (read) => Effect.flatMap(scope(subject, undefined), (user) => read.search(q, { ...options, user })))
    const shown = yield* Effect.flatMap(OperatorReads, (reads) => reads.shown(subject, hits.map((h) => ({ user: h.user, kind: "search", ids: [h.messageId] }))))
    return Option.some(searchPage(q, { hits: hits.filter((h) => shown(h.user)), next, after: options.before !== undefined }, yield* limited(subject)))
  }))

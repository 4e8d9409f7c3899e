/**
 * Forgetting from the pages: a GET that says what a forgetting of a note, a person or a message
 * would take (`Scrub.scopeOf`), and the POST of its form that does it (`Forgetting.forget`) and goes
 * where the result shows, saying what was forgotten. A user forgets only their own (anything else
 * is a 404); the operator anyone's, as curation from the pages, and is shown the text going only
 * when it reads that user's (`VERBATIM_OPERATOR_READS`; recorded under `audited`): under `none`
 * the confirmation gives the counts alone.
 */
import { HttpServerResponse } from "@effect/platform"
import type { ForgetTarget } from "@verbatim/domain/Forget/Events"
import { MessageId, NoteId, operatorUser, PersonId } from "@verbatim/domain/Ids"
import { notReadMessage } from "@verbatim/domain/OperatorReads/Mode"
import { Notebook } from "@verbatim/projections/Notebook"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import { forgottenItem } from "@verbatim/projections/Queries/Forgotten"
import * as Scrub from "@verbatim/projections/Scrub"
import { Effect, Option } from "effect"
import { forget, type Forgot } from "../Forget/Forgetting.js"
import { OperatorReads, type Read } from "../OperatorReads.js"
import { asker, back, CsrfForm, posted } from "./Curating.js"
import * as Pages from "./ForgetPages.js"
import { param } from "./Routing.js"
import * as SignIn from "./SignIn.js"
import { answered, signedIn, type Viewer } from "./Viewer.js"

/** Whether the viewer is shown this user's text (a read recorded under `audited`). */
const readable = (subject: SignIn.Subject, read: Read) =>
  Effect.flatMap(OperatorReads, (reads) => Effect.map(reads.shown(subject, [read]), (shown) => shown(read.user)))

const conversations = (scope: Scrub.ForgetScope) => new Set(scope.messages.map((m) => m.sessionId)).size

/** `GET /notes/:id/forget`: what forgetting the note takes, its text when the viewer reads it. */
export const confirmNote = signedIn("Forget a note", "people", ({ csrf, subject }) =>
  Effect.gen(function*() {
    const id = NoteId.make(yield* param("id"))
    const audit = Option.filter(yield* Effect.flatMap(Notebook, (read) => read.noteAudit(id)), (a) => SignIn.maySee(subject, a.note.user))
    if (Option.isNone(audit)) return Option.none()
    const { directives, discardedAt, note, reminders } = audit.value
    const scope = yield* Scrub.scopeOf({ _tag: "Note", noteId: id }, note.user)
    const shown = yield* readable(subject, { user: note.user, kind: "note", ids: [id] })
    const about = !shown ? `of ${note.user}` : note.owner._tag === "Person" ? `about ${note.owner.name}` : "of your own"
    const also = [
      ...(directives.length === 0 ? [] : [`the ${directives.length === 1 ? "instruction" : `${directives.length} instructions`} cut from them`]),
      ...(reminders.length === 0 ? [] : [`the words of the ${reminders.length === 1 ? "reminder" : `${reminders.length} reminders`} they set`])
    ]
    return Option.some(Pages.confirmationPage({
      question: `Forget this note ${about}?`,
      says: `This erases ${Pages.wordsOf(scope.messages.length, conversations(scope))}, and with them ${
        Pages.listed([`this note${discardedAt === null ? "" : " (discarded, and kept until now)"}`, ...also])
      }. ${Pages.forever}`,
      shown: shown ? Pages.going("The note", note.body) : null,
      withheld: shown ? null : notReadMessage,
      action: `/notes/${id}/forget`,
      button: "Forget this note",
      back: `/notes/${id}`,
      csrf
    }))
  }), "note")

/** `GET /people/:id/forget`: what forgetting the person takes, with their names when the viewer reads them. */
export const confirmPerson = signedIn("Forget a person", "people", ({ csrf, subject }) =>
  Effect.gen(function*() {
    const read = yield* Notebook
    const id = PersonId.make(yield* param("id"))
    const person = Option.filter(yield* read.person(id), (p) => SignIn.maySee(subject, p.user))
    if (Option.isNone(person)) return Option.none()
    const { name, noteCount, user } = person.value
    const scope = yield* Scrub.scopeOf({ _tag: "Person", personId: id }, user)
    const discarded = yield* read.discardedCount(id)
    const { formerNames, mergedIn } = yield* read.personNames(id)
    const shown = yield* readable(subject, { user, kind: "person", ids: [id] })
    const names = { name, former: formerNames, mergedIn: mergedIn.map((p) => ({ name: p.name, former: p.formerNames })) }
    const nameCount = 1 + formerNames.length + mergedIn.reduce((n, p) => n + 1 + p.formerNames.length, 0)
    const [who, whose] = shown ? [name, `${name}'s names${Pages.otherNames(names)}`] : ["them", `their ${nameCount === 1 ? "name" : `${nameCount} names`}`]
    const notes = scope.messages.length === 0
      ? `${whose}; no note is filed under ${who}`
      : `${Pages.wordsOf(scope.messages.length, conversations(scope))}, every note filed under ${who} (${Pages.notesCounted(noteCount, discarded)}) and ${whose}`
    return Option.some(Pages.confirmationPage({
      question: shown ? `Forget ${name}?` : `Forget a person of ${user}?`,
      says: `This erases ${notes}. ${Pages.forever}`,
      shown: null,
      withheld: shown ? null : notReadMessage,
      action: `/people/${id}/forget`,
      button: shown ? `Forget ${name}` : "Forget this person",
      back: `/people/${id}`,
      csrf
    }))
  }), "person")

/** `GET /messages/:id/forget`: what forgetting one message takes, its text when the viewer reads it. */
export const confirmMessage = signedIn("Forget a message", "none", ({ csrf, subject, zone }) =>
  Effect.gen(function*() {
    const read = yield* Notebook
    const lookups = yield* SessionLookups
    const id = MessageId.make(yield* param("id"))
    const sessionId = yield* lookups.messageSession(id)
    const accounting = Option.filter(
      yield* Option.match(sessionId, { onNone: () => Effect.succeedNone, onSome: (s) => read.sessionAccounting(s) }),
      (a) => SignIn.maySee(subject, a.user)
    )
    const entry = Option.flatMapNullable(accounting, (a) => a.messages.find((m) => m.messageId === id))
    if (Option.isNone(accounting) || Option.isNone(entry)) return Option.none()
    const { sessionId: session, user } = accounting.value
    const disposition = entry.value.disposition
    if (disposition._tag === "Erased") return Option.some(Pages.alreadyErasedPage(disposition.erasedAt, session, zone))
    if ((yield* Scrub.scopeOf({ _tag: "Message", messageId: id }, user)).user !== user) return Option.none()
    const shown = yield* readable(subject, { user, kind: "session", ids: [session, id] })
    const message = (yield* read.sessionMessages(session)).find((m) => m.id === id)
    const note = disposition._tag === "InNote" || disposition._tag === "Discarded" ? yield* read.note(disposition.noteId) : Option.none()
    const standing: Pages.Standing = Option.match(note, {
      onNone: () => ({ _tag: disposition._tag === "InQuestion" ? "InQuestion" : "Elsewhere" }),
      onSome: (n) => ({
        _tag: "InNote",
        about: shown && n.owner._tag === "Person" ? n.owner.name : null,
        discarded: disposition._tag === "Discarded",
        others: n.sources.length - 1
      })
    })
    const attached = message !== undefined && message.kind !== "text" ? " and the attachment it carried" : ""
    return Option.some(Pages.confirmationPage({
      question: `Forget message ${entry.value.seq} of this conversation?`,
      says: `This erases its words${attached} from this conversation, where it will read “erased”${Pages.standingSays(standing)}. ${Pages.forever}`,
      shown: shown ? Pages.going("What will be gone", message?.text ?? "") : null,
      withheld: shown ? null : notReadMessage,
      action: `/messages/${encodeURIComponent(id)}/forget`,
      button: "Forget this message",
      back: `/sessions/${session}`,
      csrf
    }))
  }), "message")

/** A forgetting's form (its path's id branded by `brand`): done, to `then` with what was forgotten; nothing of the viewer's to forget there is a 404. */
const forgetting = <Id extends string, E, R>(
  brand: (id: string) => Id,
  target: (id: Id) => ForgetTarget,
  then: (id: Id, subject: SignIn.Subject) => Effect.Effect<string, E, R>,
  said: (forgot: Forgot) => string
) =>
  posted(CsrfForm, (raw, _form, subject) =>
    Effect.gen(function*() {
      const id = brand(raw)
      const path = yield* then(id, subject)
      const forgot = yield* forget(target(id), asker(subject))
      return yield* back(path, said(forgot))
    }).pipe(Effect.catchTag("NothingToForget", () => HttpServerResponse.text("Not found", { status: 404 }))))

const forgotten = (what: string) => (forgot: Forgot) => `Forgotten: ${what}, ${Pages.wordsOf(forgot.messages, forgot.sessions)}.`

/**
 * `POST /notes/:id/forget`: to the note's person, or the own notes; the operator who does not read
 * its user's text (whose person page would be refused) to its session, where its messages read erased.
 */
export const forgetNote = forgetting(NoteId.make, (noteId) => ({ _tag: "Note", noteId }), (id, subject) =>
  Effect.gen(function*() {
    const note = yield* Effect.flatMap(Notebook, (read) => read.note(id))
    const { mode } = yield* OperatorReads
    if (Option.isNone(note)) return "/"
    if (subject._tag === "Operator" && mode === "none" && note.value.user !== operatorUser) return `/sessions/${note.value.sessionId}`
    return note.value.personId === null ? "/own" : `/people/${note.value.personId}`
  }), forgotten("a note"))

/** `POST /people/:id/forget`: to the people. */
export const forgetPerson = forgetting(PersonId.make, (personId) => ({ _tag: "Person", personId }), () => Effect.succeed("/"), (forgot) =>
  forgotten(`a person${forgot.people > 1 ? ` and the ${forgot.people - 1} merged into them` : ""}, their names and every note filed under them`)(forgot))

/** `POST /messages/:id/forget`: to its conversation, where it reads erased. */
export const forgetMessage = forgetting(MessageId.make, (messageId) => ({ _tag: "Message", messageId }), (id) =>
  Effect.map(Effect.flatMap(SessionLookups, (read) => read.messageSession(id)), (session) =>
    Option.match(session, { onNone: () => "/", onSome: (s) => `/sessions/${s}` })), () => "Forgotten: a message's words; it reads erased below.")

/**
 * `GET /notes/:id` or `/people/:id` of one a forgetting took: the page saying so (410), for whoever
 * could see it before; anyone else, and an id that never was, get nothing (a 404).
 */
export const forgottenAt = (kind: "note" | "person", id: NoteId | PersonId, { subject, zone }: Pick<Viewer, "subject" | "zone">) =>
  Effect.map(forgottenItem(kind, id), (trace) =>
    Option.map(Option.filter(trace, (t) => SignIn.maySee(subject, t.user)), (t) =>
      answered("Forgotten", 410, Pages.forgottenPage(kind, t.at, SignIn.userOf(subject) === t.user, zone))))

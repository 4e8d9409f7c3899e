/**
 * The web pages, served by the same server on the same port as the API: routes added to the
 * `HttpApi`'s own router, so the latency metrics and the listener are shared. Every page but
 * sign-in (`SignInRoutes.ts`), the stylesheet and the compose script needs a signed-in cookie; without one it sends the browser to sign in
 * and back. The operator (the API token's holder) sees every user's notes; a user signed in by a
 * bot link sees only their own, and anything else is a 404 as if it did not exist.
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { ReplayReportBody } from "@verbatim/domain/ReplayReport"
import { AskId, operatorUser } from "@verbatim/domain/Ids"
import { AskBook } from "@verbatim/projections/AskBook"
import type { Blobs } from "@verbatim/projections/Blobs"
import { ReminderBook } from "@verbatim/projections/ReminderBook"
import { ReadModel } from "@verbatim/projections/ReadModel"
import { ReplayReports } from "@verbatim/projections/ReplayReports"
import type { Wakeups } from "@verbatim/projections/Wakeups"
import { Effect, Layer, Option, Schema } from "effect"
import { askedView } from "../Ask/Reply.js"
import type * as Curation from "../Curation.js"
import type * as Dispatch from "../Inbox/Dispatch.js"
import type { PlanJob } from "../Planning/PlanJob.js"
import type { PlanningHold } from "../Planning/PlanningHold.js"
import { TimeZones } from "../TimeZones.js"
import { answer } from "./Answering.js"
import { askFromPage, confirmFromPage } from "./AskForm.js"
import { askedPage, askPage } from "./AskPages.js"
import { pressFromPage, reminderUser, remindersPage, zoneFromPage } from "./RemindersPage.js"
import { banner } from "./Banner.js"
import * as Curating from "./Curating.js"
import { composeForm, file, send } from "./Composing.js"
import { stylesheet } from "./Assets.js"
import { composeScript, liveReplies } from "./ComposeReplies.js"
import type { Html } from "./Html.js"
import { page, respond, type Section } from "./Layout.js"
import { mediaFile, mediaPage } from "./MediaFiles.js"
import { notePage, quoteMarkOf } from "./NotePage.js"
import { ownPage, peoplePage, personPage, questionsPage, searchPage, sessionPage } from "./Pages.js"
import { replayPage, replaysPage } from "./ReplayPages.js"
import * as SignIn from "./SignIn.js"
import { param, providing, query } from "./Routing.js"
import * as SignInRoutes from "./SignInRoutes.js"
import { SignInThrottle } from "./Throttle.js"

const notFound = (csrf: string, what: string) =>
  respond(page({ title: "Not found", section: "none", csrf }, { _tag: "Html", value: `<h1>Not found</h1><p class="muted">No such ${what}.</p>` }), 404)

/** Who the page is for and its form token. */
interface Viewer {
  readonly subject: SignIn.Subject
  readonly csrf: string
}

/** A page for a signed-in browser; others go to sign in first. `None` content is a 404 (also for what is not the viewer's). */
const signedIn = <E, R>(
  title: string,
  section: Section,
  content: (viewer: Viewer) => Effect.Effect<Option.Option<Html>, E, R>,
  missing = "page"
) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const who = yield* SignIn.current
    if (Option.isNone(who)) return yield* HttpServerResponse.redirect(`/signin?next=${encodeURIComponent(request.url)}`, { status: 303 })
    const main = yield* content(who.value)
    if (Option.isNone(main)) return yield* notFound(who.value.csrf, missing)
    const shell = { title, section, csrf: who.value.csrf, operator: who.value.subject._tag === "Operator", banner: yield* banner(SignIn.userOf(who.value.subject)) }
    return yield* respond(page(shell, main.value))
  })

/** A person's page shows this many of their newest notes. */
const notesShown = 200

/** What the pages need: the read model, capture's path for the compose box, and curation's. */
type Services =
  | ReadModel
  | Blobs
  | Wakeups
  | ReplayReports
  | SignIn.WebKeys
  | SignInThrottle
  | PlanJob
  | PlanningHold
  | AskBook
  | ReminderBook
  | Curation.Services
  | Effect.Effect.Context<ReturnType<typeof Dispatch.handle>>

/** The pages of a signed-in browser. */
const pages = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const read = yield* ReadModel
    const services = yield* Effect.context<Services>()
    const provided = providing(services)

    yield* router.get("/assets/app.css", stylesheet)
    yield* router.get("/assets/compose.js", composeScript)
    yield* router.get("/", provided(signedIn("People", "people", ({ subject }) =>
      Effect.gen(function*() {
        const q = (yield* query("q")).trim()
        const people = yield* read.peopleByActivity({ limit: 500, user: SignIn.userOf(subject) })
        const matching = q === "" ? people : people.filter((p) => p.name.toLocaleLowerCase().includes(q.toLocaleLowerCase()))
        // The operator sees every user's people: each says whose it is.
        return Option.some(peoplePage(matching, q, subject._tag === "Operator"))
      }))))
    yield* router.get("/own", provided(signedIn("Own notes", "own", ({ subject }) =>
      Effect.gen(function*() {
        const user = SignIn.userOf(subject)
        return Option.some(ownPage(yield* read.ownNotes(user, notesShown), yield* read.ownNotes(user, notesShown, true)))
      }))))
    // A person merged into another is found under the person they joined.
    yield* router.get("/people/:id", provided(Effect.flatMap(param("id"), (id) =>
      Effect.gen(function*() {
        // A merged person's old address leads to the person they joined, for a signed-in viewer who may see them.
        const who = yield* SignIn.current
        const into = Option.isNone(who) ? Option.none() : yield* Effect.flatMap(read.mergedInto(id), (merged) =>
          Option.isNone(merged) ? Effect.succeedNone : read.person(merged.value))
        if (Option.isSome(who) && Option.isSome(into) && SignIn.maySee(who.value.subject, into.value.user)) {
          return yield* HttpServerResponse.redirect(`/people/${into.value.id}`, { status: 303 })
        }
        return yield* signedIn("Person", "people", ({ csrf, subject }) =>
          Effect.gen(function*() {
            const person = Option.filter(yield* read.person(id), (p) => SignIn.maySee(subject, p.user))
            if (Option.isNone(person)) return Option.none()
            const extras = {
              discarded: yield* read.newestNotes(id, notesShown, true),
              people: (yield* read.people({ limit: 500, user: person.value.user })).items,
              csrf,
              notice: yield* query("notice")
            }
            return Option.some(personPage(person.value, yield* read.newestNotes(id, notesShown), extras))
          }), "person")
      }))))
    yield* router.get("/notes/:id", provided(signedIn("Note", "people", ({ csrf, subject }) =>
      Effect.gen(function*() {
        const audit = Option.filter(yield* read.noteAudit(yield* param("id")), (a) => SignIn.maySee(subject, a.note.user))
        if (Option.isNone(audit)) return Option.none()
        const people = yield* read.people({ limit: 500, user: audit.value.note.user })
        return Option.some(notePage(audit.value, people.items, csrf, yield* query("notice"), quoteMarkOf(yield* query("mark"))))
      }), "note")))
    yield* router.get("/media/:message/:ordinal", provided(mediaFile))
    yield* router.get("/media/:message/:ordinal/pages/:page", provided(mediaPage))
    yield* router.post("/notes/:id/move", provided(Curating.moveNote))
    yield* router.post("/notes/:id/split", provided(Curating.splitNote))
    yield* router.post("/notes/:id/discard", provided(Curating.discardNote))
    yield* router.post("/notes/:id/restore", provided(Curating.restoreNote))
    yield* router.post("/people/:id/rename", provided(Curating.renamePerson))
    yield* router.post("/people/:id/merge", provided(Curating.mergePeople))
    yield* router.get("/questions", provided(signedIn("Questions", "questions", ({ csrf, subject }) =>
      Effect.gen(function*() {
        const open = yield* read.questions({ limit: 200, status: "open", user: SignIn.userOf(subject) })
        return Option.some(questionsPage(open.items, csrf, yield* query("notice")))
      }))))
    yield* router.post("/questions/:id/answer", provided(answer))
    yield* router.get("/compose", provided(composeForm))
    yield* router.post("/compose", provided(send))
    yield* router.post("/compose/file", provided(file))
    yield* router.get("/compose/replies", provided(liveReplies))
    yield* router.get("/ask", provided(signedIn("Ask", "ask", ({ csrf, subject }) =>
      Effect.gen(function*() {
        const asks = yield* Effect.flatMap(AskBook, (book) => book.of(SignIn.userOf(subject) ?? operatorUser, 50))
        return Option.some(askPage(yield* Effect.forEach(asks, askedView), csrf, yield* query("notice")))
      }))))
    yield* router.post("/ask", provided(askFromPage))
    yield* router.post("/asks/:id/confirm", provided(confirmFromPage))
    yield* router.get("/asks/:id", provided(signedIn("Answer", "ask", ({ csrf, subject }) =>
      Effect.gen(function*() {
        const id = AskId.make(yield* param("id"))
        const row = Option.filter(yield* Effect.flatMap(AskBook, (book) => book.get(id)), (a) => SignIn.maySee(subject, a.user))
        return Option.isNone(row) ? Option.none() : Option.some(askedPage(yield* askedView(row.value), csrf, yield* query("notice")))
      }), "question")))
    yield* router.get("/reminders", provided(signedIn("Reminders", "reminders", ({ csrf, subject }) =>
      Effect.gen(function*() {
        const book = yield* ReminderBook
        const user = reminderUser(subject, operatorUser)
        const open = yield* book.of(user, ["asking", "held", "scheduled", "delivered"], 200)
        const finished = yield* book.of(user, ["done", "cancelled"], 50)
        const zone = yield* Effect.flatMap(TimeZones, (zones) => zones.zoneOf(user))
        return Option.some(remindersPage(open, [...finished].reverse(), csrf, yield* query("notice"), zone))
      }))))
    yield* router.post("/reminders/zone", provided(zoneFromPage(operatorUser)))
    yield* router.post("/reminders/:id", provided(pressFromPage))
    yield* router.get("/search", provided(signedIn("Search", "search", ({ subject }) =>
      Effect.gen(function*() {
        const q = yield* query("q")
        return Option.some(searchPage(q, yield* read.search(q, { user: SignIn.userOf(subject), limit: 50 })))
      }))))
    // Replay reports cover every user's sessions: the operator's pages only.
    yield* router.get("/replays", provided(signedIn("Replay reports", "replays", ({ subject }) =>
      subject._tag === "Operator" ? Effect.map(Effect.flatMap(ReplayReports, (r) => r.list(100)), (reports) => Option.some(replaysPage(reports))) : Effect.succeed(Option.none())
    )))
    yield* router.get("/replays/:id", provided(signedIn("Replay report", "replays", ({ subject }) =>
      Effect.gen(function*() {
        if (subject._tag !== "Operator") return Option.none()
        const report = yield* (yield* ReplayReports).get(yield* param("id"))
        if (Option.isNone(report)) return Option.none()
        const body = Schema.decodeUnknownOption(Schema.parseJson(ReplayReportBody))(report.value.body)
        return Option.map(body, (b) => replayPage(report.value, b))
      }), "replay report")))
    yield* router.get("/sessions/:id", provided(signedIn("Session", "none", ({ subject }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        const accounting = yield* read.sessionAccounting(id)
        if (Option.isNone(accounting) || !SignIn.maySee(subject, accounting.value.user)) return Option.none()
        const messages = yield* read.sessionMessages(id)
        const noteIds = new Set(accounting.value.messages.flatMap((m) => (m.disposition._tag === "InNote" || m.disposition._tag === "Discarded" ? [m.disposition.noteId] : [])))
        const notes = yield* Effect.forEach([...noteIds], (noteId) => read.note(noteId))
        const owners = new Map(notes.flatMap(Option.toArray).map((n) => [n.id as string, n.owner._tag === "Person" ? n.owner.name : "your own thoughts"]))
        const texts = new Map(messages.map((m) => [m.id as string, m.text]))
        return Option.some(sessionPage(accounting.value, { texts, owners, plans: yield* read.sessionPlans(id) }))
      }), "session")))
  })
)

/** Every page on the API's router. */
export const layer = Layer.merge(pages, SignInRoutes.layer).pipe(Layer.provide([SignIn.WebKeys.layer, SignInThrottle.layer]))

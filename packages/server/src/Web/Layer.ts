/**
 * The web pages, served by the same server on the same port as the API: routes added to the
 * `HttpApi`'s own router, so the latency metrics and the listener are shared. Every page but
 * sign-in (`SignInRoutes.ts`), the stylesheet and the compose script needs a signed-in cookie; without one it sends the browser to sign in
 * and back (`Viewer.ts`). A user signed in by a bot link sees only their own, and anything else is
 * a 404 as if it did not exist; the operator (the API token's holder) sees their own and other
 * users' as `VERBATIM_OPERATOR_READS` says (`OperatorReads.ts`, `ReadRoutes.ts`).
 */
import { HttpApiBuilder } from "@effect/platform"
import { AskId, operatorUser } from "@verbatim/domain/Ids"
import { AskBook } from "@verbatim/projections/AskBook"
import type { Blobs } from "@verbatim/projections/Blobs"
import type { Jobs } from "@verbatim/projections/Jobs"
import type { Notebook } from "@verbatim/projections/Notebook"
import { ReminderBook } from "@verbatim/projections/ReminderBook"
import type { ReplayReports } from "@verbatim/projections/ReplayReports"
import type { SessionLookups } from "@verbatim/projections/SessionLookups"
import type { Wakeups } from "@verbatim/projections/Wakeups"
import { Effect, Layer, Option } from "effect"
import { askedView, askedViews } from "../Ask/Reply.js"
import type * as Curation from "../Curation.js"
import type { forget } from "../Forget/Forgetting.js"
import type * as Dispatch from "../Inbox/Dispatch.js"
import type { PlanJob } from "../Planning/PlanJob.js"
import type { PlanningHold } from "../Planning/PlanningHold.js"
import { type OperatorReads, require } from "../OperatorReads.js"
import { TimeZones } from "../TimeZones.js"
import { answer } from "./Answering.js"
import { askFromPage, confirmFromPage } from "./AskForm.js"
import { askedPage, askPage } from "./AskPages.js"
import { pressFromPage, reminderUser, remindersPage, zoneFromPage } from "./RemindersPage.js"
import * as Curating from "./Curating.js"
import * as MergePages from "./MergePages.js"
import * as ForgetRoutes from "./ForgetRoutes.js"
import { composeForm, file, send } from "./Composing.js"
import { capture, preview } from "./PasteChat.js"
import { stylesheet } from "./Assets.js"
import { composeScript, liveReplies } from "./ComposeReplies.js"
import { mediaFile, mediaPage } from "./MediaFiles.js"
import { jsonCopy, markdownCopy } from "./PersonCopy.js"
import * as ReadRoutes from "./ReadRoutes.js"
import { readsRoute } from "./ReadsPage.js"
import { replayRoute, replaysRoute } from "./ReplayPages.js"
import { sessionRoute } from "./SessionPage.js"
import { signInLinksLayer } from "./Links.js"
import * as SignIn from "./SignIn.js"
import { param, providing, query } from "./Routing.js"
import { signedIn } from "./Viewer.js"
import * as SignInRoutes from "./SignInRoutes.js"
import { SignInThrottle } from "./Throttle.js"

/** What the pages need: the notebook's reads, the session lookups and the queues', capture's path for the compose box, curation's and forgetting's. */
type Services =
  | Notebook
  | SessionLookups
  | Jobs
  | Blobs
  | Wakeups
  | ReplayReports
  | SignIn.WebKeys
  | SignInThrottle
  | PlanJob
  | PlanningHold
  | AskBook
  | ReminderBook
  | OperatorReads
  | Curation.Services
  | Effect.Effect.Context<ReturnType<typeof Dispatch.handle>>
  | Effect.Effect.Context<ReturnType<typeof forget>>

/** The pages of a signed-in browser. */
const pages = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const services = yield* Effect.context<Services>()
    const provided = providing(services)

    yield* router.get("/assets/app.css", stylesheet)
    yield* router.get("/assets/compose.js", composeScript)
    yield* router.get("/", provided(ReadRoutes.people))
    yield* router.get("/own", provided(ReadRoutes.own))
    // A person merged into another is found under the person they joined.
    yield* router.get("/people/:id", provided(ReadRoutes.person))
    yield* router.get("/people/:id/export.md", provided(markdownCopy))
    yield* router.get("/people/:id/export.json", provided(jsonCopy))
    yield* router.get("/notes/:id", provided(ReadRoutes.note))
    yield* router.get("/media/:message/:ordinal", provided(mediaFile))
    yield* router.get("/media/:message/:ordinal/pages/:page", provided(mediaPage))
    yield* router.post("/notes/:id/move", provided(Curating.moveNote))
    yield* router.post("/notes/:id/split", provided(Curating.splitNote))
    yield* router.post("/notes/:id/discard", provided(Curating.discardNote))
    yield* router.post("/notes/:id/restore", provided(Curating.restoreNote))
    yield* router.post("/people/:id/rename", provided(Curating.renamePerson))
    yield* router.get("/people/:id/merge", provided(MergePages.confirmMerge))
    yield* router.post("/people/:id/merge", provided(Curating.mergePeople))
    yield* router.post("/people/:id/unmerge", provided(Curating.unmergePeople))
    yield* router.get("/notes/:id/forget", provided(ForgetRoutes.confirmNote))
    yield* router.post("/notes/:id/forget", provided(ForgetRoutes.forgetNote))
    yield* router.get("/people/:id/forget", provided(ReadRoutes.aboutPerson("/forget", ForgetRoutes.confirmPerson)))
    yield* router.post("/people/:id/forget", provided(ForgetRoutes.forgetPerson))
    yield* router.get("/messages/:id/forget", provided(ForgetRoutes.confirmMessage))
    yield* router.post("/messages/:id/forget", provided(ForgetRoutes.forgetMessage))
    yield* router.get("/questions", provided(ReadRoutes.questions))
    yield* router.post("/questions/:id/answer", provided(answer))
    yield* router.get("/compose", provided(composeForm))
    yield* router.post("/compose", provided(send))
    yield* router.post("/compose/file", provided(file))
    yield* router.post("/compose/paste", provided(preview))
    yield* router.post("/compose/paste/capture", provided(capture))
    yield* router.get("/compose/replies", provided(liveReplies))
    yield* router.get("/ask", provided(signedIn("Ask", "ask", ({ csrf, subject, zone }) =>
      Effect.gen(function*() {
        const asks = yield* Effect.flatMap(AskBook, (book) => book.of(SignIn.userOf(subject) ?? operatorUser, 50))
        return Option.some(askPage(yield* askedViews(asks), csrf, yield* query("notice"), zone))
      }))))
    yield* router.post("/ask", provided(askFromPage))
    yield* router.post("/asks/:id/confirm", provided(confirmFromPage))
    yield* router.get("/asks/:id", provided(signedIn("Answer", "ask", ({ csrf, subject, zone }) =>
      Effect.gen(function*() {
        const id = AskId.make(yield* param("id"))
        const row = Option.filter(yield* Effect.flatMap(AskBook, (book) => book.get(id)), (a) => SignIn.maySee(subject, a.user))
        if (Option.isNone(row)) return Option.none()
        yield* require(subject, { user: row.value.user, kind: "ask", ids: [id] })
        return Option.some(askedPage(yield* askedView(row.value), csrf, yield* query("notice"), zone))
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
    yield* router.get("/search", provided(ReadRoutes.search))
    // Replay reports cover every user's sessions: the operator's pages only.
    yield* router.get("/replays", provided(replaysRoute))
    yield* router.get("/replays/:id", provided(replayRoute))
    yield* router.get("/sessions/:id", provided(sessionRoute))
    yield* router.get("/reads", provided(readsRoute))
  })
)

/** Every page on the API's router. */
export const layer = Layer.merge(pages, SignInRoutes.layer).pipe(Layer.provide(signInLinksLayer), Layer.provide([SignIn.WebKeys.layer, SignInThrottle.layer]))

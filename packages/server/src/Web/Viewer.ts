/**
 * A page for a signed-in browser: without a sign-in it goes to sign in and back; what is not the
 * viewer's is a 404 as if it did not exist; another user's text the operator is not shown
 * (`VERBATIM_OPERATOR_READS=none`) is a 403 page naming the setting.
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { OperatorReadRefused } from "@verbatim/domain/ApiErrors"
import { Effect, Option } from "effect"
import { TimeZones } from "../TimeZones.js"
import { banner } from "./Banner.js"
import { type Html, html } from "./Html.js"
import { page, respond, type Section, type Shell } from "./Layout.js"
import * as SignIn from "./SignIn.js"

/** Who the page is for, its form token and the time zone its times are read in. */
export interface Viewer {
  readonly subject: SignIn.Subject
  readonly csrf: string
  readonly zone: string
}

const notFound = (csrf: string, what: string) =>
  respond(page({ title: "Not found", section: "none", csrf }, { _tag: "Html", value: `<h1>Not found</h1><p class="muted">No such ${what}.</p>` }), 404)

/** Another user's text, not shown to the operator: why, and the way back. */
const refusedPage = (message: string): Html =>
  html`<h1>Not shown to the operator</h1>
<p data-refused>${message}</p>
<p><a href="/">Go to the people</a></p>`

/**
 * What a signed-in browser is sent, `answer` making the response of what `content` found; others
 * go to sign in first. `None` content is a 404 (also for what is not the viewer's).
 */
const serve = <A, E, R>(
  section: Section,
  content: (viewer: Viewer) => Effect.Effect<Option.Option<A>, E | OperatorReadRefused, R>,
  answer: (shell: Omit<Shell, "title">, found: A) => Effect.Effect<HttpServerResponse.HttpServerResponse>,
  missing: string
) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const who = yield* SignIn.current
    if (Option.isNone(who)) return yield* HttpServerResponse.redirect(`/signin?next=${encodeURIComponent(request.url)}`, { status: 303 })
    const user = SignIn.userOf(who.value.subject)
    const shell = {
      section,
      csrf: who.value.csrf,
      operator: who.value.subject._tag === "Operator",
      banner: yield* banner(user)
    }
    const zones = yield* TimeZones
    const zone = user === undefined ? zones.fallback : yield* zones.zoneOf(user)
    return yield* content({ ...who.value, zone }).pipe(
      Effect.flatMap(Option.match({
        onNone: () => notFound(who.value.csrf, missing),
        onSome: (found) => answer(shell, found)
      })),
      Effect.catchIf(
        (e): e is OperatorReadRefused => e instanceof OperatorReadRefused,
        (refused) => respond(page({ ...shell, title: "Not shown" }, refusedPage(refused.message)), 403)
      )
    )
  })

/** Content with a title and status of its own, as a forgotten note's page (410) has. */
export interface Answered {
  readonly _tag: "Answered"
  readonly title: string
  readonly status: number
  readonly main: Html
}

export const answered = (title: string, status: number, main: Html): Answered => ({ _tag: "Answered", title, status, main })

/** A page for a signed-in browser; others go to sign in first. `None` content is a 404 (also for what is not the viewer's). */
export const signedIn = <E, R>(
  title: string,
  section: Section,
  content: (viewer: Viewer) => Effect.Effect<Option.Option<Html | Answered>, E | OperatorReadRefused, R>,
  missing = "page"
) =>
  serve(section, content, (shell, found) =>
    found._tag === "Answered" ? respond(page({ ...shell, title: found.title }, found.main), found.status) : respond(page({ ...shell, title }, found)), missing)

/** A file for a signed-in browser (a download), sent as `content` made it; sign-in, 404 and 403 as for a page. */
export const signedInFile = <E, R>(
  section: Section,
  content: (viewer: Viewer) => Effect.Effect<Option.Option<HttpServerResponse.HttpServerResponse>, E | OperatorReadRefused, R>,
  missing = "page"
) => serve(section, content, (_, file) => Effect.succeed(file), missing)

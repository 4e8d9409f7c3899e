/**
 * A page for a signed-in browser: without a sign-in it goes to sign in and back; what is not the
 * viewer's is a 404 as if it did not exist; another user's text the operator is not shown
 * (`VERBATIM_OPERATOR_READS=none`) is a 403 page naming the setting.
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { OperatorReadRefused } from "@verbatim/domain/ApiErrors"
import { Effect, Option } from "effect"
import { banner } from "./Banner.js"
import { type Html, html } from "./Html.js"
import { page, respond, type Section } from "./Layout.js"
import * as SignIn from "./SignIn.js"

/** Who the page is for and its form token. */
export interface Viewer {
  readonly subject: SignIn.Subject
  readonly csrf: string
}

const notFound = (csrf: string, what: string) =>
  respond(page({ title: "Not found", section: "none", csrf }, { _tag: "Html", value: `<h1>Not found</h1><p class="muted">No such ${what}.</p>` }), 404)

/** Another user's text, not shown to the operator: why, and the way back. */
const refusedPage = (message: string): Html =>
  html`<h1>Not shown to the operator</h1>
<p data-refused>${message}</p>
<p><a href="/">Go to the people</a></p>`

/** A page for a signed-in browser; others go to sign in first. `None` content is a 404 (also for what is not the viewer's). */
export const signedIn = <E, R>(
  title: string,
  section: Section,
  content: (viewer: Viewer) => Effect.Effect<Option.Option<Html>, E | OperatorReadRefused, R>,
  missing = "page"
) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const who = yield* SignIn.current
    if (Option.isNone(who)) return yield* HttpServerResponse.redirect(`/signin?next=${encodeURIComponent(request.url)}`, { status: 303 })
    const shell = {
      section,
      csrf: who.value.csrf,
      operator: who.value.subject._tag === "Operator",
      banner: yield* banner(SignIn.userOf(who.value.subject))
    }
    return yield* content(who.value).pipe(
      Effect.flatMap(Option.match({
        onNone: () => notFound(who.value.csrf, missing),
        onSome: (main) => respond(page({ ...shell, title }, main))
      })),
      Effect.catchIf(
        (e): e is OperatorReadRefused => e instanceof OperatorReadRefused,
        (refused) => respond(page({ ...shell, title: "Not shown" }, refusedPage(refused.message)), 403)
      )
    )
  })

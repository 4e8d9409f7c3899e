/**
 * Capturing from the page: the compose box's messages go through `Compose.compose` as the `web`
 * provider's, under the id the page was rendered with, so sending a form twice records once. The
 * operator writes as `web:operator`; a user signed in by a bot link as themselves, while they are
 * still on the allow-list. Line breaks arrive as CRLF (browsers send a text box so) and are kept as
 * the LF that was typed; everything else is kept exactly.
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { ComposedMessage } from "@verbatim/domain/CaptureApi"
import { operatorUser, type UserId } from "@verbatim/domain/Ids"
import { tooLong } from "@verbatim/domain/MessageLimit"
import { Notebook } from "@verbatim/projections/Notebook"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import { Duration, Effect, Either, Option, ParseResult, Schema } from "effect"
import { chatOf, compose } from "../Inbox/Compose.js"
import { IdGenerator } from "../IdGenerator.js"
import { ServerConfig } from "../ServerConfig.js"
import { banner } from "./Banner.js"
import { composePage, type ComposeView } from "./ComposePage.js"
import { page, respond } from "./Layout.js"
import * as SignIn from "./SignIn.js"

const SendForm = Schema.Struct({
  csrf: Schema.String,
  id: Schema.String,
  text: Schema.String,
  forwardedFrom: Schema.optionalWith(Schema.String, { default: () => "" }),
  then: Schema.optionalWith(Schema.Literal("send", "file"), { default: () => "send" as const })
})
const FileForm = Schema.Struct({ csrf: Schema.String, id: Schema.String })

/** What the last action did, by the code in the page's address. */
const notices: Record<string, string> = {
  sent: "Sent. Send more, or file them now.",
  again: "Already sent: nothing was recorded twice.",
  filing: "Filing now: the bot's reply appears below as soon as it is made (without scripts, reload the page).",
  "nothing-open": "No session was open: nothing to file.",
  pasted: "Captured the pasted messages, each on its own. Send more, or file them now."
}

/** Who writes: the operator as `web:operator`, a user as themselves while still allowed; None for a user no longer allowed. */
export const writerOf = (subject: SignIn.Subject) =>
  Effect.map(ServerConfig, (settings): Option.Option<UserId> =>
    subject._tag === "Operator" ? Option.some(operatorUser) : settings.allowedSenders.has(subject.user) ? Option.some(subject.user) : Option.none())

const view = (user: UserId, csrf: string, notice: string, refused: ComposeView["refused"]) =>
  Effect.gen(function*() {
    const read = yield* SessionLookups
    const notebook = yield* Notebook
    const settings = yield* ServerConfig
    const sessions = yield* read.conversationSessions({ user, provider: "web", chat: chatOf(user) })
    return composePage({
      csrf,
      formId: yield* Effect.flatMap(IdGenerator, (ids) => ids.next("m")),
      open: Option.isSome(sessions.open) ? yield* notebook.sessionMessages(sessions.open.value) : [],
      replies: yield* notebook.conversationReplies("web", chatOf(user), 10),
      idleSeconds: Duration.toSeconds(settings.webSessionIdle),
      notice: notices[notice] ?? "",
      refused
    })
  })

const forbidden = HttpServerResponse.text("Forbidden: a stale or missing form token", { status: 403 })
const notAllowed = HttpServerResponse.text("Forbidden: you are no longer on this server's allow-list", { status: 403 })
const signInFirst = HttpServerResponse.redirect("/signin?next=%2Fcompose", { status: 303 })
export const back = (notice: string) => HttpServerResponse.redirect(`/compose?notice=${notice}`, { status: 303 })

/** A posted form from a signed-in writer with its CSRF token good; Left the response that refuses it. */
export const postedBy = <A extends { readonly csrf: string }, I extends Record<string, string | ReadonlyArray<string> | undefined>>(
  schema: Schema.Schema<A, I>
) =>
  Effect.gen(function*() {
    const who = yield* SignIn.current
    if (Option.isNone(who)) return Either.left(yield* signInFirst)
    const form = yield* HttpServerRequest.schemaBodyUrlParams(schema)
    if (!(yield* SignIn.WebKeys).isCsrf(who.value.cookie, form.csrf)) return Either.left(yield* forbidden)
    const user = yield* writerOf(who.value.subject)
    if (Option.isNone(user)) return Either.left(yield* notAllowed)
    return Either.right({ csrf: who.value.csrf, form, user: user.value })
  })

/** The first problem of a message that does not decode, said for the page. */
export const problemOf = (error: ParseResult.ParseError): string => {
  const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
  const field = issue?.path[0] === "forwardedFrom" ? "The forwarded-from name" : issue?.path[0] === "id" ? "The form's id" : "The message"
  return `${field} ${issue?.message ?? "is not valid"}.`
}

/** GET /compose. */
export const composeForm = Effect.gen(function*() {
  const who = yield* SignIn.current
  if (Option.isNone(who)) return yield* signInFirst
  const user = yield* writerOf(who.value.subject)
  if (Option.isNone(user)) return yield* notAllowed
  const notice = new URL((yield* HttpServerRequest.HttpServerRequest).url, "http://local").searchParams.get("notice") ?? ""
  const shell = {
    title: "Capture",
    section: "compose" as const,
    csrf: who.value.csrf,
    banner: yield* banner(SignIn.userOf(who.value.subject)),
    script: "/assets/compose.js"
  }
  return yield* respond(page(shell, yield* view(user.value, who.value.csrf, notice, null)), 200, true)
})

/** POST /compose: one message, then (`then=file`) the session closed. */
export const send = Effect.gen(function*() {
  const posted = yield* postedBy(SendForm)
  if (Either.isLeft(posted)) return posted.left
  const { csrf, form, user } = posted.right
  const forwardedFrom = form.forwardedFrom.trim()
  const message = Schema.decodeUnknownEither(ComposedMessage)({
    id: form.id,
    text: form.text.replace(/\r\n/g, "\n"),
    forwardedFrom: forwardedFrom === "" ? null : forwardedFrom
  })
  if (Either.isLeft(message)) {
    const refused = { reason: problemOf(message.left), text: form.text, forwardedFrom: form.forwardedFrom }
    return yield* respond(page({ title: "Capture", section: "compose", csrf, banner: yield* banner(user) }, yield* view(user, csrf, "", refused)), 400)
  }
  const overLong = tooLong(message.right.text)
  if (overLong !== null) {
    const refused = { reason: `The message ${overLong}: split it, and send each part.`, text: form.text, forwardedFrom: form.forwardedFrom }
    return yield* respond(page({ title: "Capture", section: "compose", csrf, banner: yield* banner(user) }, yield* view(user, csrf, "", refused)), 413)
  }
  const [outcome] = yield* compose(user, [message.right], form.then === "file")
  return yield* back(form.then === "file" ? "filing" : outcome?.outcome === "already-recorded" ? "again" : "sent")
})

/** POST /compose/file: close the open session now (`/done` under the form's id, so sending it twice closes once). */
export const file = Effect.gen(function*() {
  const posted = yield* postedBy(FileForm)
  if (Either.isLeft(posted)) return posted.left
  const { form, user } = posted.right
  const open = (yield* Effect.flatMap(SessionLookups, (read) => read.conversationSessions({ user, provider: "web", chat: chatOf(user) }))).open
  if (Option.isNone(open)) return yield* back("nothing-open")
  const message = Schema.decodeUnknownEither(ComposedMessage)({ id: form.id, text: "/done" })
  if (Either.isLeft(message)) return yield* HttpServerResponse.text(`Bad request: ${problemOf(message.left)}`, { status: 400 })
  yield* compose(user, [message.right], false)
  return yield* back("filing")
})

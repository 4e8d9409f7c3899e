/**
 * Asking from the page: the question recorded as the API records it, answered by the same worker,
 * waited for a while (the page has no script), then shown on its own page.
 */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { maxQuestionLength, questionProblem } from "@verbatim/domain/Ask/Question"
import { AskId, MessageId } from "@verbatim/domain/Ids"
import { AskBook } from "@verbatim/projections/AskBook"
import { Effect, Option, Schema } from "effect"
import { confirmQuote } from "../Ask/Confirm.js"
import { awaitAnswer, pose } from "../Ask/Pose.js"
import { IdGenerator } from "../IdGenerator.js"
import { writerOf } from "./Composing.js"
import * as SignIn from "./SignIn.js"

const AskForm = Schema.Struct({ csrf: Schema.String, question: Schema.String })

/** How long the page waits for the answer before showing the question as still being looked up. */
const pageWait = "20 seconds"

const back = (notice: string) => HttpServerResponse.redirect(`/ask?notice=${encodeURIComponent(notice)}`, { status: 303 })

/** POST /ask. */
export const askFromPage = Effect.gen(function*() {
  const who = yield* SignIn.current
  if (Option.isNone(who)) return yield* HttpServerResponse.redirect("/signin?next=%2Fask", { status: 303 })
  const form = yield* HttpServerRequest.schemaBodyUrlParams(AskForm)
  if (!(yield* SignIn.WebKeys).isCsrf(who.value.cookie, form.csrf)) return yield* HttpServerResponse.text("Forbidden: a stale or missing form token", { status: 403 })
  const user = yield* writerOf(who.value.subject)
  if (Option.isNone(user)) return yield* HttpServerResponse.text("Forbidden: you are no longer on this server's allow-list", { status: 403 })
  const problem = questionProblem(form.question)
  if (problem !== null) {
    return yield* back(problem === "empty" ? "Ask something first." : `That question is ${form.question.length} characters long; ask it in at most ${maxQuestionLength}.`)
  }
  const askId = AskId.make(yield* Effect.flatMap(IdGenerator, (ids) => ids.next("ask")))
  yield* pose({ askId, user: user.value, question: form.question.trim(), via: "web", provider: null, chat: null })
  yield* awaitAnswer(askId, pageWait)
  return yield* HttpServerResponse.redirect(`/asks/${encodeURIComponent(askId)}`, { status: 303 })
})

const ConfirmForm = Schema.Struct({
  csrf: Schema.String,
  messageId: Schema.String,
  start: Schema.NumberFromString.pipe(Schema.int()),
  end: Schema.NumberFromString.pipe(Schema.int())
})

/** POST /asks/:id/confirm: the asker says a quote answers their question (the operator, for anyone's). */
export const confirmFromPage = Effect.gen(function*() {
  const who = yield* SignIn.current
  if (Option.isNone(who)) return yield* HttpServerResponse.redirect("/signin?next=%2Fask", { status: 303 })
  const form = yield* HttpServerRequest.schemaBodyUrlParams(ConfirmForm)
  if (!(yield* SignIn.WebKeys).isCsrf(who.value.cookie, form.csrf)) return yield* HttpServerResponse.text("Forbidden: a stale or missing form token", { status: 403 })
  const askId = AskId.make((yield* HttpRouter.params)["id"] ?? "")
  const asked = Option.filter(yield* Effect.flatMap(AskBook, (book) => book.get(askId)), (row) => SignIn.maySee(who.value.subject, row.user))
  const said = Option.isNone(asked)
    ? "That question is not there."
    : yield* confirmQuote(askId, { messageId: MessageId.make(form.messageId), start: form.start, end: form.end }, asked.value.user)
  return yield* HttpServerResponse.redirect(`/asks/${encodeURIComponent(askId)}?notice=${encodeURIComponent(said)}`, { status: 303 })
})

/**
 * Asking from the page: the question recorded as the API records it, answered by the same worker,
 * waited for a while (the page has no script), then shown on its own page.
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { maxQuestionLength, questionProblem } from "@verbatim/domain/Ask/Question"
import { AskId } from "@verbatim/domain/Ids"
import { Effect, Option, Schema } from "effect"
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
  return yield* HttpServerResponse.redirect(`/asks/${askId}`, { status: 303 })
})

/**
 * Answering a question from the page: the same command as the bot's buttons (`Answers.answer`),
 * so answering twice files once. A filed answer goes to its note; anything else back to the
 * questions with what happened.
 */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { QuestionId } from "@verbatim/domain/Ids"
import { Effect, Option, Schema } from "effect"
import * as Answers from "../Inbox/Answers.js"
import * as SignIn from "./SignIn.js"

/** A candidate's index, or `own`: keep the messages as the sender's own notes. */
const AnswerForm = Schema.Struct({
  csrf: Schema.String,
  option: Schema.Union(Schema.Literal("own"), Schema.NumberFromString.pipe(Schema.int(), Schema.nonNegative()))
})

export const answer = Effect.gen(function*() {
  const who = yield* SignIn.current
  if (Option.isNone(who)) return yield* HttpServerResponse.redirect("/signin?next=%2Fquestions", { status: 303 })
  const form = yield* HttpServerRequest.schemaBodyUrlParams(AnswerForm)
  const keys = yield* SignIn.WebKeys
  if (!keys.isCsrf(who.value.cookie, form.csrf)) return yield* HttpServerResponse.text("Forbidden: a stale or missing form token", { status: 403 })
  const id = QuestionId.make((yield* HttpRouter.params)["id"] ?? "")
  const choice: Answers.Choice = form.option === "own"
    ? { _tag: "Given", answer: { _tag: "Unattached" } }
    : { _tag: "Option", index: form.option }
  // A user answers as themselves (a question of someone else's is refused as not found); the operator as anyone.
  const outcome = yield* Answers.answer(id, choice, SignIn.userOf(who.value.subject) ?? null)
  return yield* outcome._tag === "Filed"
    ? HttpServerResponse.redirect(`/notes/${outcome.noteId}`, { status: 303 })
    : HttpServerResponse.redirect(`/questions?notice=${encodeURIComponent(Answers.outcomeText(outcome))}`, { status: 303 })
})

/**
 * The ask's endpoints: a question asked of a user's notes (answered with the user's own words,
 * each quote exact, never a sentence of the model's), a user's past questions, and one question.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authorization, BadRequest, NotFound, OperatorReadRefused } from "./ApiErrors.js"
import { storable } from "./ApiResponses.js"
import { AskId, MessageId, NoteId, UserId } from "./Ids.js"

export const AskPayload = Schema.Struct({
  question: storable(Schema.String),
  user: Schema.optionalWith(UserId, { exact: true })
}).annotations({ message: () => "must be a JSON object {\"question\": \"…\"}, with `user` when asking for someone other than the operator" })

/** One quote of an answer: the message's characters `start`…`end`, who its note is filed under, and the day it was sent. */
export const AnswerQuote = Schema.Struct({
  messageId: MessageId,
  noteId: Schema.NullOr(NoteId),
  person: Schema.NullOr(Schema.String),
  day: Schema.String,
  start: Schema.Number,
  end: Schema.Number,
  text: Schema.String,
  /** The asker confirmed that it answers the question. */
  confirmed: Schema.Boolean
})

/** A question and where it stands: still being answered, answered (its quotes, and the reply's words), or failed (why). */
export const Asked = Schema.Struct({
  id: AskId,
  user: UserId,
  question: Schema.String,
  postedAt: Schema.String,
  status: Schema.Literal("posed", "answered", "failed"),
  quotes: Schema.Array(AnswerQuote),
  /** Quotes the model gave that were not the user's exact words, dropped. */
  dropped: Schema.Number,
  failure: Schema.NullOr(Schema.String),
  /** The answer in words, as the chat shows it (every quote). */
  text: Schema.NullOr(Schema.String)
})
export type Asked = typeof Asked.Type

export const AskedList = Schema.Struct({ items: Schema.Array(Asked) })

export class AskGroup extends HttpApiGroup.make("ask")
  .add(
    HttpApiEndpoint.post("ask", "/ask")
      .annotate(OpenApi.Summary, "Ask a question of a user's notes")
      .annotate(
        OpenApi.Description,
        "Answered with the user's own words only: the model chooses which words answer, and every quote is checked to be exactly in one of the user's messages (a quote that is not is dropped and counted). The question is recorded first; the answer is waited for up to 25 seconds (`status` is `posed` if it is still coming: `GET /api/asks/{id}` then). The model down: `failed`, with the question kept. `user` must be `web:operator` (the default) or a user on the allow-list (another user's words are not the operator's to read under VERBATIM_OPERATOR_READS=none: a 403); a question is at most 2,000 characters."
      )
      .setPayload(AskPayload)
      .addSuccess(Asked)
  )
  .add(
    HttpApiEndpoint.get("asks", "/asks")
      .annotate(OpenApi.Summary, "A user's questions")
      .annotate(OpenApi.Description, "A user's questions and their answers, newest first (at most 100); another user's are a 403 under VERBATIM_OPERATOR_READS=none.")
      .setUrlParams(Schema.Struct({ user: UserId }))
      .addSuccess(AskedList)
  )
  .add(
    HttpApiEndpoint.get("asked", "/asks/:id")
      .annotate(OpenApi.Summary, "One question")
      .annotate(OpenApi.Description, "One question and where it stands, with its answer's quotes once it has them; another user's is a 403 under VERBATIM_OPERATOR_READS=none.")
      .setPath(Schema.Struct({ id: AskId }))
      .addSuccess(Asked)
      .addError(NotFound)
  )
  .addError(BadRequest)
  .addError(OperatorReadRefused)
  .middleware(Authorization)
  .prefix("/api")
{}

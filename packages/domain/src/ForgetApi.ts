/**
 * The forgetting endpoints: a note, a person or a message forgotten for good. Each is a
 * `Forgotten` in the log, with no content, and the words leave every byte the service keeps (the
 * README's "Forgetting"). Nothing left to forget (no such thing, or forgotten already) is a 404.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authorization, BadRequest, NotFound } from "./ApiErrors.js"
import { MessageId, NoteId, PersonId, UserId } from "./Ids.js"

/** What a forgetting took: its id, whose, how many messages of how many sessions, how many people. */
export const Forgot = Schema.Struct({
  forgetId: Schema.String,
  user: UserId,
  messages: Schema.Number,
  sessions: Schema.Number,
  people: Schema.Number
})

const forgetting = <Name extends string, Path extends `/${string}`, I extends string>(
  name: Name,
  path: Path,
  id: Schema.Schema<I, string>,
  summary: string,
  description: string
) =>
  HttpApiEndpoint.post(name, path)
    .setPath(Schema.Struct({ id }))
    .annotate(OpenApi.Summary, summary)
    .annotate(OpenApi.Description, description)
    .addSuccess(Forgot)
    .addError(NotFound)

export class ForgetGroup extends HttpApiGroup.make("forget")
  .add(forgetting("forgetNote", "/notes/:id/forget", NoteId, "Forget a note", "Erases the words of the note's messages: they read `Erased` in their session's accounting, and the note is gone."))
  .add(forgetting("forgetPerson", "/people/:id/forget", PersonId, "Forget a person", "Erases every note filed under the person (and the people merged into them), and their names wherever they were recorded; the person is gone."))
  .add(forgetting("forgetMessage", "/messages/:id/forget", MessageId, "Forget a message", "Erases one message's words: the note that held it keeps its other messages."))
  .addError(BadRequest)
  .middleware(Authorization)
  .prefix("/api")
{}

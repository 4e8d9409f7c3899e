/**
 * `verbatim forget (--note ID | --person ID | --message ID | --user ID) [--yes]`: forget what
 * the target holds, for good. Without `--yes` it says what would be gone and changes nothing;
 * with it, the messages' words are erased from the log's payloads, the read model, the search
 * index, media bytes and published reports, and the store's files are compacted.
 */
import { Command, Options } from "@effect/cli"
import type { ForgetTarget } from "@verbatim/domain/Forget/Events"
import { MessageId, NoteId, PersonId, UserId } from "@verbatim/domain/Ids"
import * as Scrub from "@verbatim/projections/Scrub"
import { Console, Effect, Option } from "effect"
import { forget } from "../Forget/Forgetting.js"
import { CliError } from "./CliError.js"

const options = {
  note: Options.text("note").pipe(Options.withDescription("A note: its messages"), Options.optional),
  person: Options.text("person").pipe(Options.withDescription("A person: every note filed under them, their names and merged names"), Options.optional),
  message: Options.text("message").pipe(Options.withDescription("One message"), Options.optional),
  user: Options.text("user").pipe(Options.withDescription("Everything of one user, e.g. telegram:123"), Options.optional),
  yes: Options.boolean("yes").pipe(Options.withDescription("Forget it; without it, say what would be gone"))
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

export const command = Command.make("forget", options, (args) =>
  Effect.gen(function*() {
    const given = [
      Option.map(args.note, (id): ForgetTarget => ({ _tag: "Note", noteId: NoteId.make(id) })),
      Option.map(args.person, (id): ForgetTarget => ({ _tag: "Person", personId: PersonId.make(id) })),
      Option.map(args.message, (id): ForgetTarget => ({ _tag: "Message", messageId: MessageId.make(id) })),
      Option.map(args.user, (): ForgetTarget => ({ _tag: "User" }))
    ].flatMap(Option.toArray)
    if (given.length !== 1) return yield* new CliError({ message: "name exactly one of --note, --person, --message or --user" })
    const target = given[0]!
    const user = Option.getOrNull(Option.map(args.user, (id) => UserId.make(id)))
    const scope = yield* Scrub.scopeOf(target, user)
    if (scope.user === null) return yield* new CliError({ message: "nothing by that id: `verbatim events` and the web pages show the ids" })
    const sessions = new Set(scope.messages.map((m) => m.sessionId)).size
    const gone = `${plural(scope.messages.length, "message", "messages")} of ${plural(sessions, "session", "sessions")}` +
      (scope.people.length === 0 ? "" : ` and ${plural(scope.people.length, "person", "people")} with their names`) + ` of ${scope.user}`
    if (!args.yes) return yield* Console.log(`would forget ${gone}; nothing was changed: run again with --yes to forget them for good`)
    const done = yield* forget(target, null, scope.user).pipe(Effect.catchTag("NothingToForget", (e) => new CliError({ message: e.message })))
    yield* Console.log(
      `forgot ${gone} (${done.forgetId}): ${plural(done.rewritten, "stored event", "stored events")} rewritten without their words, ` +
        "the store compacted; backups taken before still hold them"
    )
  })).pipe(Command.withDescription("Forget a note, a person, a message or a user's everything: their words erased from every byte the service keeps"))

/**
 * `verbatim retranscribe MESSAGE` or `--session ID`: read a message's attachments (or a whole
 * session's) again with the transcriber and image reader as configured now, fetching any whose
 * bytes were never stored. A different model's text is a new `MediaTranscribed` event, so the
 * note re-derives and `verbatim replay` can compare the plans; the same text again records nothing.
 */
import { Args, Command, Options } from "@effect/cli"
import { MessageId, SessionId } from "@verbatim/domain/Ids"
import { Jobs, type MediaWork } from "@verbatim/projections/Jobs"
import { Console, Effect, Option } from "effect"
import { MediaWorker } from "../Media/Worker.js"
import { CliError } from "./CliError.js"

/** One attachment's line: where it stands after the run. */
const line = (row: MediaWork): string => {
  const where = `${row.messageId} #${row.ordinal} ${row.kind}`
  if (row.derivedModel !== null) return `${where}: read by ${row.derivedModel}: ${JSON.stringify(row.derivedText ?? "")}`
  if (row.failureStage !== null) {
    return `${where}: ${row.failurePermanent ? "not read" : "not read yet, tried again later"}: ${row.failureReason ?? "unknown"}`
  }
  return `${where}: ${row.sha256 === null ? "not fetched" : "stored, no reader takes this kind"}`
}

export const command = Command.make(
  "retranscribe",
  {
    message: Args.text({ name: "MESSAGE" }).pipe(Args.withSchema(MessageId), Args.optional),
    session: Options.text("session").pipe(Options.withSchema(SessionId), Options.withDescription("every attachment of this session"), Options.optional)
  },
  ({ message, session }) =>
    Effect.gen(function*() {
      const target = Option.orElse(message, () => session)
      if (Option.isNone(target) || (Option.isSome(message) && Option.isSome(session))) {
        return yield* new CliError({ message: "give a message id or --session ID (one of them)" })
      }
      const read = yield* Jobs
      const before = yield* read.mediaOf(target.value)
      if (before.length === 0) {
        return yield* new CliError({ message: `${target.value}: no attachments under that message or session id (\`verbatim accounting SESSION\` lists messages)` })
      }
      yield* (yield* MediaWorker).reread(target.value)
      const after = yield* read.mediaOf(target.value)
      for (const row of after) yield* Console.log(line(row))
    })
).pipe(Command.withDescription("Transcribe or read a message's attachments again with the readers configured now"))

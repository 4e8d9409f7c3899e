/**
 * `verbatim reconcile EXPORT --user telegram:ID`: the messages of an export the log does not have
 * (those a provider dropped while the server was down, say), found as an import would find them
 * (`ImportSurvey.ts`), printed one a line. It reads only; `verbatim import` records them.
 */
import { Args, Command } from "@effect/cli"
import { Console, Effect } from "effect"
import { survey, tally } from "../ImportSurvey.js"
import { readExport, userOption, whatsAppOptions } from "./ImportInputs.js"
import { foundLine, gapLine, leftOutLine } from "./ImportReport.js"

export const command = Command.make(
  "reconcile",
  { file: Args.file({ name: "export", exists: "yes" }), user: userOption, ...whatsAppOptions },
  ({ chat, dateOrder, file, tz, user }) =>
    Effect.gen(function*() {
      const { format, read } = yield* readExport(file, null, user, { dateOrder, tz, chat })
      const surveyed = yield* survey(read.messages, { ...user, format })
      const counts = tally(surveyed)
      const gaps = surveyed.filter((s) => s.standing._tag === "Missing" || s.standing._tag === "Refused")
      yield* Console.log([
        `${file}: ${gaps.length} message(s) of ${surveyed.length} missing from the log, ${foundLine(counts.ById, counts.ByContent)}` +
        leftOutLine(counts.Command, read.botReplies, counts.BotReply),
        ...gaps.map(gapLine)
      ].join("\n"))
    })
).pipe(Command.withDescription("List the messages of a chat export (Telegram JSON or WhatsApp text) the log lacks"))

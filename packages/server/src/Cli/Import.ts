/**
 * `verbatim import telegram-export result.json --user telegram:ID` and
 * `verbatim import whatsapp-export chat.txt --user whatsapp:ID`: read an export, then capture the
 * messages the log does not have into the user's sessions (see `Import.ts`); `--dry-run` lists
 * what would be added and what is already there, and changes nothing. Parse errors name the file
 * and the message or line; a message a store cannot keep is named on stderr and the command
 * exits 1, the rest of the export recorded.
 */
import { Args, Command, Options } from "@effect/cli"
import type { ExportFormat } from "@verbatim/domain/Inbound/ChatExport"
import { Console, Duration, Effect, Option, Schema } from "effect"
import { importMessages } from "../Import.js"
import { survey, tally } from "../ImportSurvey.js"
import * as Progress from "../Progress.js"
import { CliError } from "./CliError.js"
import { type ReadExport, readExport, type User, userOption, type WhatsAppSettings, whatsAppOptions } from "./ImportInputs.js"
import { foundLine, leftOutLine, surveyLine } from "./ImportReport.js"

/**
 * An hour: a chat export's conversations have pauses of minutes between replies, so the live
 * session idle time (30 s) would make a session of nearly every message.
 */
const defaultIdleSeconds = 3600

const idleOption = Options.integer("idle").pipe(
  Options.withSchema(Schema.Int.pipe(Schema.positive({ message: () => "--idle must be a positive number of seconds" }))),
  Options.withDescription(`Seconds of silence that start a new session (default ${defaultIdleSeconds}, an hour)`),
  Options.withDefault(defaultIdleSeconds)
)

const quietOption = Options.boolean("quiet").pipe(
  Options.withDescription("Send the user no summary reply of the import")
)

const dryRunOption = Options.boolean("dry-run").pipe(
  Options.withDescription("List what would be added and what the log already has; change nothing")
)

interface Settings {
  readonly idleSeconds: number
  readonly quiet: boolean
  readonly dryRun: boolean
}

const noWhatsApp: WhatsAppSettings = { dateOrder: Option.none(), tz: Option.none(), chat: Option.none() }

/** List where each message stands; nothing is written. */
const dryRun = (file: string, format: ExportFormat, user: User, read: ReadExport) =>
  Effect.gen(function*() {
    const surveyed = yield* survey(read.messages, { ...user, format })
    const counts = tally(surveyed)
    yield* Console.log([
      `dry run of ${file}, nothing changed: ${counts.Missing} message(s) to add of ${surveyed.length}, ` +
      `${foundLine(counts.ById, counts.ByContent)}` + (counts.Refused > 0 ? `, ${counts.Refused} refused` : "") +
      leftOutLine(counts.Command, read.botReplies, counts.BotReply),
      ...surveyed.map(surveyLine)
    ].join("\n"))
  })

const run = (format: ExportFormat, file: string, user: User, settings: Settings, whatsApp: WhatsAppSettings) =>
  Effect.gen(function*() {
    const { read } = yield* readExport(file, format, user, whatsApp)
    if (settings.dryRun) return yield* dryRun(file, format, user, read)
    const progress = yield* Progress.start(`import ${file}`, read.messages.length)
    const summary = yield* importMessages(read.messages, {
      ...user,
      format,
      idle: Duration.seconds(settings.idleSeconds),
      quiet: settings.quiet,
      progress
    })
    yield* Console.log([
      `imported ${file}: ${summary.recorded} new message(s) of ${summary.messages}, ` +
      `${foundLine(summary.byId, summary.byContent)}, ${summary.sessions.length} session(s) closed for planning` +
      (summary.replied ? ", one summary reply queued" : "") + leftOutLine(summary.commands, read.botReplies, summary.botReplies),
      ...summary.sessions.map((s) => `  ${s}`)
    ].join("\n"))
    if (summary.refused.length > 0) {
      return yield* new CliError({
        message: `${file}: ${summary.refused.length} message(s) refused, the rest recorded: ${summary.refused.join("; ")}; ` +
          `remove the character from the export and import it again`
      })
    }
  }).pipe(Effect.scoped)

const telegram = Command.make(
  "telegram-export",
  { file: Args.file({ name: "result.json", exists: "yes" }), user: userOption, idle: idleOption, quiet: quietOption, dryRun: dryRunOption },
  ({ dryRun, file, idle, quiet, user }) => run("telegram-export", file, user, { idleSeconds: idle, quiet, dryRun }, noWhatsApp)
).pipe(Command.withDescription("Import Telegram Desktop's \"Export chat history\" (JSON)"))

const whatsapp = Command.make(
  "whatsapp-export",
  {
    file: Args.file({ name: "chat.txt", exists: "yes" }),
    user: userOption,
    idle: idleOption,
    quiet: quietOption,
    dryRun: dryRunOption,
    ...whatsAppOptions
  },
  ({ chat, dateOrder, dryRun, file, idle, quiet, tz, user }) =>
    run("whatsapp-export", file, user, { idleSeconds: idle, quiet, dryRun }, { dateOrder, tz, chat })
).pipe(Command.withDescription("Import WhatsApp's \"Export chat\" (text, without media)"))

export const command = Command.make("import").pipe(
  Command.withDescription("Import a chat export as forwarded messages, only those the log does not have"),
  Command.withSubcommands([telegram, whatsapp])
)

/**
 * `verbatim import telegram-export result.json --user telegram:ID` and
 * `verbatim import whatsapp-export chat.txt --user whatsapp:ID`: read an export, then capture its
 * messages into the user's sessions (see `Import.ts`). Parse errors name the file and the message
 * or line; a message a store cannot keep is named on stderr and the command exits 1, the rest of
 * the export recorded.
 */
import { Args, Command, HelpDoc, Options, ValidationError } from "@effect/cli"
import type { ExportedMessage, ExportError } from "@verbatim/domain/Inbound/ChatExport"
import type { Provider } from "@verbatim/domain/Ids"
import { parseTelegramExport } from "@verbatim/domain/Inbound/TelegramExport"
import { parseWhatsAppExport } from "@verbatim/domain/Inbound/WhatsAppExport"
import { Console, DateTime, Duration, Effect, Either, Option, Schema } from "effect"
import { readFile } from "node:fs/promises"
import { importMessages } from "../Import.js"
import * as Progress from "../Progress.js"
import { CliError } from "./CliError.js"

const userOption = Options.text("user").pipe(
  Options.withDescription("Whose sessions receive the messages: telegram:ID or whatsapp:ID"),
  Options.mapEffect((text) => {
    const match = /^(telegram|whatsapp):(\S+)$/.exec(text)
    return match === null
      ? Effect.fail(ValidationError.invalidValue(HelpDoc.p(
        `--user ${text}: expected telegram:ID or whatsapp:ID (the sender id the bot sees)`
      )))
      : Effect.succeed({ provider: match[1] as Provider, senderId: match[2]! })
  })
)

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

const tzOption = Options.text("tz").pipe(
  Options.withDescription("The time zone the phone wrote the times in, e.g. Europe/Lisbon (default UTC)"),
  Options.mapEffect((name) =>
    Option.match(DateTime.zoneMakeNamed(name), {
      onNone: () => Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--tz ${name}: not a time zone name like Europe/Lisbon`))),
      onSome: Effect.succeed
    })
  ),
  Options.optional
)

const readText = (file: string) =>
  Effect.tryPromise({
    try: () => readFile(file, "utf8"),
    catch: (error) => new CliError({ message: `cannot read ${file}: ${(error as Error).message}` })
  })

const run = (
  format: "telegram-export" | "whatsapp-export",
  file: string,
  user: { readonly provider: Provider; readonly senderId: string },
  settings: { readonly idleSeconds: number; readonly quiet: boolean },
  parse: (text: string) => Either.Either<ReadonlyArray<ExportedMessage>, ExportError>
) =>
  Effect.gen(function*() {
    const text = yield* readText(file)
    const messages = yield* Either.mapLeft(parse(text), (e) => new CliError({ message: `${file}: ${e.message}` }))
    const progress = yield* Progress.start(`import ${file}`, messages.length)
    const summary = yield* importMessages(messages, {
      ...user,
      format,
      idle: Duration.seconds(settings.idleSeconds),
      quiet: settings.quiet,
      progress
    })
    yield* Console.log([
      `imported ${file}: ${summary.recorded} new message(s) of ${summary.messages}, ` +
      `${summary.alreadyRecorded} already recorded, ${summary.sessions.length} session(s) closed for planning` +
      (summary.replied ? ", one summary reply queued" : ""),
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
  { file: Args.file({ name: "result.json", exists: "yes" }), user: userOption, idle: idleOption, quiet: quietOption },
  ({ file, idle, quiet, user }) => run("telegram-export", file, user, { idleSeconds: idle, quiet }, parseTelegramExport)
).pipe(Command.withDescription("Import Telegram Desktop's \"Export chat history\" (JSON)"))

const whatsapp = Command.make(
  "whatsapp-export",
  {
    file: Args.file({ name: "chat.txt", exists: "yes" }),
    user: userOption,
    idle: idleOption,
    quiet: quietOption,
    dateOrder: Options.choice("date-order", ["dmy", "mdy"]).pipe(
      Options.withDescription("Day/month order of the export's dates (guessed when omitted)"),
      Options.optional
    ),
    tz: tzOption,
    chat: Options.text("chat").pipe(
      Options.withDescription("Names the chat in the messages' ids (default: the export's first line)"),
      Options.optional
    )
  },
  ({ chat, dateOrder, file, idle, quiet, tz, user }) =>
    run(
      "whatsapp-export",
      file,
      user,
      { idleSeconds: idle, quiet },
      (text) =>
        parseWhatsAppExport(text, {
          dateOrder: Option.getOrUndefined(dateOrder),
          timeZone: Option.getOrUndefined(tz),
          chat: Option.getOrUndefined(chat)
        })
    )
).pipe(Command.withDescription("Import WhatsApp's \"Export chat\" (text, without media)"))

export const command = Command.make("import").pipe(
  Command.withDescription("Import a chat export as forwarded messages"),
  Command.withSubcommands([telegram, whatsapp])
)

/**
 * `verbatim import telegram-export result.json --user telegram:ID` and
 * `verbatim import whatsapp-export chat.txt --user whatsapp:ID`: read an export, then capture its
 * messages into the user's sessions (see `Import.ts`). Parse errors name the file and the message
 * or line.
 */
import { Args, Command, HelpDoc, Options, ValidationError } from "@effect/cli"
import type { ExportedMessage, ExportError } from "@verbatim/domain/Inbound/ChatExport"
import type { Provider } from "@verbatim/domain/Ids"
import { parseTelegramExport } from "@verbatim/domain/Inbound/TelegramExport"
import { parseWhatsAppExport } from "@verbatim/domain/Inbound/WhatsAppExport"
import { Console, Duration, Effect, Either, Option, Schema } from "effect"
import { readFile } from "node:fs/promises"
import { importMessages } from "../Import.js"
import * as Progress from "../Progress.js"
import { config as serverConfig } from "../ServerConfig.js"
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

const idleOption = Options.integer("idle").pipe(
  Options.withSchema(Schema.Int.pipe(Schema.positive({ message: () => "--idle must be a positive number of seconds" }))),
  Options.withDescription("Seconds of silence that start a new session (default VERBATIM_SESSION_IDLE_SECONDS)"),
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
  idleSeconds: Option.Option<number>,
  parse: (text: string) => Either.Either<ReadonlyArray<ExportedMessage>, ExportError>
) =>
  Effect.gen(function*() {
    const text = yield* readText(file)
    const messages = yield* Either.mapLeft(parse(text), (e) => new CliError({ message: `${file}: ${e.message}` }))
    const idle = Option.isSome(idleSeconds) ? Duration.seconds(idleSeconds.value) : (yield* serverConfig).sessionIdle
    const progress = yield* Progress.start(`import ${file}`, messages.length)
    const summary = yield* importMessages(messages, { ...user, format, idle, progress })
    yield* Console.log([
      `imported ${file}: ${summary.recorded} new message(s) of ${summary.messages}, ` +
      `${summary.alreadyRecorded} already recorded, ${summary.sessions.length} session(s) closed for planning`,
      ...summary.sessions.map((s) => `  ${s}`)
    ].join("\n"))
  }).pipe(Effect.scoped)

const telegram = Command.make(
  "telegram-export",
  { file: Args.file({ name: "result.json", exists: "yes" }), user: userOption, idle: idleOption },
  ({ file, idle, user }) => run("telegram-export", file, user, idle, parseTelegramExport)
).pipe(Command.withDescription("Import Telegram Desktop's \"Export chat history\" (JSON)"))

const whatsapp = Command.make(
  "whatsapp-export",
  {
    file: Args.file({ name: "chat.txt", exists: "yes" }),
    user: userOption,
    idle: idleOption,
    dateOrder: Options.choice("date-order", ["dmy", "mdy"]).pipe(
      Options.withDescription("Day/month order of the export's dates (guessed when omitted)"),
      Options.optional
    )
  },
  ({ dateOrder, file, idle, user }) =>
    run("whatsapp-export", file, user, idle, (text) => parseWhatsAppExport(text, { dateOrder: Option.getOrUndefined(dateOrder) }))
).pipe(Command.withDescription("Import WhatsApp's \"Export chat\" (text, without media)"))

export const command = Command.make("import").pipe(
  Command.withDescription("Import a chat export as forwarded messages"),
  Command.withSubcommands([telegram, whatsapp])
)

/**
 * What `verbatim import` and `verbatim reconcile` read: the options naming the user and how to
 * read a WhatsApp export, and the export itself. A Telegram Desktop export of the user's own chat
 * with this bot (`bot_chat`, and the bot's id that of `TELEGRAM_BOT_TOKEN` when it is set) is read
 * as their own words without the bot's replies (`BotChat.ts`); any other chat is forwarded material.
 */
import { HelpDoc, Options, ValidationError } from "@effect/cli"
import { isBotChat, userSide } from "@verbatim/domain/Inbound/BotChat"
import type { ExportedMessage, ExportFormat } from "@verbatim/domain/Inbound/ChatExport"
import type { Provider } from "@verbatim/domain/Ids"
import { readTelegramExport } from "@verbatim/domain/Inbound/TelegramExport"
import { parseWhatsAppExport } from "@verbatim/domain/Inbound/WhatsAppExport"
import { Config, DateTime, Effect, Either, Option, Redacted } from "effect"
import { readFile } from "node:fs/promises"
import { CliError } from "./CliError.js"

export interface User {
  readonly provider: Provider
  readonly senderId: string
}

export const userOption = Options.text("user").pipe(
  Options.withDescription("Whose sessions receive the messages: telegram:ID or whatsapp:ID"),
  Options.mapEffect((text) => {
    const match = /^(telegram|whatsapp):(\S+)$/.exec(text)
    return match === null
      ? Effect.fail(ValidationError.invalidValue(HelpDoc.p(
        `--user ${text}: expected telegram:ID or whatsapp:ID (the sender id the bot sees)`
      )))
      : Effect.succeed<User>({ provider: match[1] as Provider, senderId: match[2]! })
  })
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

/** How to read a WhatsApp export's dates and name its chat. */
export const whatsAppOptions = {
  dateOrder: Options.choice("date-order", ["dmy", "mdy"]).pipe(
    Options.withDescription("Day/month order of the export's dates (read from the whole file when omitted)"),
    Options.optional
  ),
  tz: tzOption,
  chat: Options.text("chat").pipe(
    Options.withDescription("Names the chat in the messages' ids (default: the export's first line)"),
    Options.optional
  )
}

export interface WhatsAppSettings {
  readonly dateOrder: Option.Option<"dmy" | "mdy">
  readonly tz: Option.Option<DateTime.TimeZone>
  readonly chat: Option.Option<string>
}

/** This bot's Telegram user id: the digits before the `:` of its token, when one is set. */
const telegramBotId = Config.option(Config.redacted("TELEGRAM_BOT_TOKEN")).pipe(
  Config.map(Option.flatMap((token) => Option.fromNullable(/^(\d+):/.exec(Redacted.value(token))?.[1])))
)

/** An export as read: its messages, and how many of the bot's replies were left out (null: not the chat with the bot). */
export interface ReadExport {
  readonly messages: ReadonlyArray<ExportedMessage>
  readonly botReplies: number | null
}

const readText = (file: string) =>
  Effect.tryPromise({
    try: () => readFile(file, "utf8"),
    catch: (error) => new CliError({ message: `cannot read ${file}: ${(error as Error).message}` })
  })

/** The export's format by its text: Telegram Desktop writes JSON, WhatsApp lines of text. */
export const formatOf = (text: string): ExportFormat => (/^\uFEFF?\s*\{/.test(text) ? "telegram-export" : "whatsapp-export")

/** Read an export file in the given format (guessed from its text when none). */
export const readExport = (file: string, format: ExportFormat | null, user: User, whatsApp: WhatsAppSettings) =>
  Effect.gen(function*() {
    const text = yield* readText(file)
    const as = format ?? formatOf(text)
    const fail = (e: { readonly message: string }) => new CliError({ message: `${file}: ${e.message}` })
    if (as === "whatsapp-export") {
      const messages = yield* Either.mapLeft(parseWhatsAppExport(text, {
        dateOrder: Option.getOrUndefined(whatsApp.dateOrder),
        timeZone: Option.getOrUndefined(whatsApp.tz),
        chat: Option.getOrUndefined(whatsApp.chat)
      }), fail)
      return { format: as, read: { messages, botReplies: null } satisfies ReadExport }
    }
    const exported = yield* Either.mapLeft(readTelegramExport(text), fail)
    const botId = yield* telegramBotId
    if (!isBotChat(exported.chat, Option.getOrNull(botId))) {
      return { format: as, read: { messages: exported.messages, botReplies: null } satisfies ReadExport }
    }
    const side = yield* Either.mapLeft(userSide(exported, user.senderId), fail)
    return { format: as, read: { messages: side.messages, botReplies: side.botReplies } satisfies ReadExport }
  })

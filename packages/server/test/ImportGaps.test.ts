/**
 * An import fills gaps and never doubles: messages captured live are found by sender, minute and
 * text (a Telegram export of the chat with the bot numbers its messages per account, so its ids
 * are not the bot's), the bot's replies and the user's commands are left out, and only what the
 * log lacks is recorded. On SQLite and on PostgreSQL (VERBATIM_TEST_DATABASE_URL, else PGlite).
 */
import { describe, expect, it } from "@effect/vitest"
import { userSide } from "@verbatim/domain/Inbound/BotChat"
import type { ExportedMessage } from "@verbatim/domain/Inbound/ChatExport"
import { NewMessage } from "@verbatim/domain/Inbound/Inbound"
import { readTelegramExport } from "@verbatim/domain/Inbound/TelegramExport"
import { parseWhatsAppExport } from "@verbatim/domain/Inbound/WhatsAppExport"
import { EventStore, start } from "@verbatim/projections/EventStore"
import type { Services } from "@verbatim/projections/Store"
import { botChatExport as botChat } from "@verbatim/testkit/BotChatExport"
import * as Database from "@verbatim/testkit/Database"
import { ReplyId, UserId } from "@verbatim/domain/Ids"
import { ReplyCommand } from "@verbatim/domain/Reply/Decide"
import { DateTime, Duration, Effect, Either, Layer, Stream } from "effect"
import { importMessages } from "../src/Import.js"
import { survey } from "../src/ImportSurvey.js"
import * as Ingest from "../src/Inbox/Ingest.js"
import * as Replies from "../src/Replies.js"
import { TimeZones } from "../src/TimeZones.js"

/** A message as its webhook delivered it, live. */
const live = (provider: "telegram" | "whatsapp", id: string, sender: string, iso: string, text: string, forwardedFrom: string | null = null) =>
  Ingest.capture(NewMessage.make({
    provider, providerMessageId: id, senderId: sender, chatId: sender, senderName: "Zoë", text, kind: "text",
    forwardedFrom, replyTo: null, attachments: [], links: [], mediaGroup: null, sentAt: DateTime.unsafeMake(iso)
  }))

/** What the log holds: each message's provider id, sender, forward origin and text. */
const log = Effect.flatMap(EventStore, (store) => Stream.runCollect(store.readAll(start, { types: ["MessageReceived"] }))).pipe(
  Effect.map((events) =>
    [...events].flatMap((e) =>
      e.event._tag === "MessageReceived"
        ? [[e.event.message.providerMessageId, e.event.message.sender, e.event.message.forwardedFrom, e.event.message.text]]
        : []
    ))
)

const counts = (summary: { recorded: number; byId: number; byContent: number; commands: number; refused: ReadonlyArray<string> }) =>
  ({ recorded: summary.recorded, byId: summary.byId, byContent: summary.byContent, commands: summary.commands, refused: summary.refused.length })

const telegramOptions = { provider: "telegram", senderId: "4242", format: "telegram-export", idle: Duration.hours(1), quiet: true } as const
const zoesSide: ReadonlyArray<ExportedMessage> = Either.getOrThrow(userSide(Either.getOrThrow(readTelegramExport(botChat)), "4242")).messages

/** Mia (whatsapp 351910000001) in her chat with the bot's number: two identical lines in one minute, one of them captured live. */
const whatsAppChat = [
  "01/03/2024, 09:01 - Mia: ok",
  "01/03/2024, 09:01 - Mia: ok",
  "01/03/2024, 09:02 - Mia: Tom moved to Lisbon"
].join("\n")
const whatsAppOptions = { provider: "whatsapp", senderId: "351910000001", format: "whatsapp-export", idle: Duration.hours(1), quiet: true } as const

const suite = (layer: () => Layer.Layer<Services, unknown>) => {
  const provide = <A, E>(effect: Effect.Effect<A, E, Services | TimeZones>) =>
    Effect.provide(effect, Layer.merge(layer(), TimeZones.layerZone("UTC")))

  it.live("a Telegram export of the chat with the bot records only what was missed, as the user's own words", () =>
    provide(Effect.gen(function*() {
      yield* live("telegram", "4242:5001", "4242", "2024-03-01T09:01:00Z", "Call me after 6", "Bob Ray")
      expect(counts(yield* importMessages(zoesSide, telegramOptions))).toEqual({ recorded: 1, byId: 0, byContent: 1, commands: 1, refused: 0 })
      expect(yield* log).toEqual([
        ["4242:5001", "telegram:4242", "Bob Ray", "Call me after 6"],
        ["telegram-export:777:93", "telegram:4242", null, "Bob is Ana's\nbrother"]
      ])
      expect(counts(yield* importMessages(zoesSide, telegramOptions))).toEqual({ recorded: 0, byId: 1, byContent: 1, commands: 1, refused: 0 })
      expect((yield* log).length).toBe(2)
    })))

  it.live("a live message of another minute, another text or another user is not the exported one", () =>
    provide(Effect.gen(function*() {
      yield* live("telegram", "4242:5001", "4242", "2024-03-01T09:02:00Z", "Call me after 6", "Bob Ray")
      yield* live("telegram", "4242:5002", "4242", "2024-03-01T09:01:40Z", "Bob is Ana's brother")
      yield* live("telegram", "5151:6001", "5151", "2024-03-01T09:01:00Z", "Call me after 6", "Bob Ray")
      expect(counts(yield* importMessages(zoesSide, telegramOptions))).toEqual({ recorded: 2, byId: 0, byContent: 0, commands: 1, refused: 0 })
    })))

  it.live("a WhatsApp export: one live line stands for one of two identical lines, and a survey writes nothing", () =>
    provide(Effect.gen(function*() {
      yield* live("whatsapp", "wamid.HBgL1", "351910000001", "2024-03-01T09:01:37Z", "ok")
      const messages = Either.getOrThrow(parseWhatsAppExport(whatsAppChat))
      const surveyed = yield* survey(messages, whatsAppOptions)
      expect(surveyed.map((s) => [s.message.location, s.standing])).toEqual([
        ["line 1", { _tag: "ByContent", providerMessageId: "wamid.HBgL1" }],
        ["line 2", { _tag: "Missing" }],
        ["line 3", { _tag: "Missing" }]
      ])
      expect((yield* log).length).toBe(1)
      expect(counts(yield* importMessages(messages, whatsAppOptions))).toEqual({ recorded: 2, byId: 0, byContent: 1, commands: 0, refused: 0 })
      expect((yield* log).map((row) => row[3])).toEqual(["ok", "ok", "Tom moved to Lisbon"])
      expect(counts(yield* importMessages(messages, whatsAppOptions))).toEqual({ recorded: 0, byId: 2, byContent: 1, commands: 0, refused: 0 })
    })))

  it.live("in a WhatsApp export of the chat with the bot, a line with the text of a reply the bot sent that minute is the bot's, left out", () =>
    provide(Effect.gen(function*() {
      yield* live("whatsapp", "wamid.HBgL2", "351910000001", "2024-03-01T09:01:05Z", "Tom moved to Lisbon")
      const replyId = ReplyId.make("reply_wa_1")
      yield* Replies.queue({
        replyId, user: UserId.make("whatsapp:351910000001"), provider: "whatsapp", chat: "351910000001",
        text: "Added 1 note: Tom.", buttons: [], questionId: null
      })
      yield* Replies.recordSent(ReplyCommand.RecordSent({ sent: { replyId, providerMessageId: "wamid.OUT1", sentAt: DateTime.unsafeMake("2024-03-01T09:01:50Z") } }))
      const chat = [
        "01/03/2024, 09:01 - Mia: Tom moved to Lisbon",
        "01/03/2024, 09:01 - Verbatim: Added 1 note: Tom.",
        // The same words the bot sent, but a minute later than it sent them: not its reply.
        "01/03/2024, 09:03 - Mia: Added 1 note: Tom.",
        "01/03/2024, 09:04 - Mia: Ana is back in May"
      ].join("\n")
      const messages = Either.getOrThrow(parseWhatsAppExport(chat))
      expect((yield* survey(messages, whatsAppOptions)).map((s) => [s.message.location, s.standing])).toEqual([
        ["line 1", { _tag: "ByContent", providerMessageId: "wamid.HBgL2" }],
        ["line 2", { _tag: "BotReply", replyId: "reply_wa_1" }],
        ["line 3", { _tag: "Missing" }],
        ["line 4", { _tag: "Missing" }]
      ])
      const summary = yield* importMessages(messages, whatsAppOptions)
      expect({ ...counts(summary), botReplies: summary.botReplies, alreadyRecorded: summary.alreadyRecorded }).toEqual({
        recorded: 2, byId: 0, byContent: 1, commands: 0, refused: 0, botReplies: 1, alreadyRecorded: 1
      })
      expect((yield* log).map((row) => row[3])).toEqual(["Tom moved to Lisbon", "Added 1 note: Tom.", "Ana is back in May"])
    })))
}

describe("imports fill gaps on SQLite", () => {
  suite(() => Database.sqlite())
})

describe("imports fill gaps on PostgreSQL", () => {
  suite(() => Database.pg)
})

/**
 * A WhatsApp export imported before its message ids named the chat: importing it again after the
 * upgrade finds every message under its former id and records nothing twice.
 */
import { describe, expect, it } from "@effect/vitest"
import { exportedMessageId } from "@verbatim/domain/Inbound/ChatExport"
import { NewMessage } from "@verbatim/domain/Inbound/Inbound"
import { parseWhatsAppExport } from "@verbatim/domain/Inbound/WhatsAppExport"
import { EventStore, start } from "@verbatim/projections/EventStore"
import * as Database from "@verbatim/testkit/Database"
import { Duration, Effect, Either, Stream, Layer } from "effect"
import { importMessages } from "../src/Import.js"
import * as Ingest from "../src/Inbox/Ingest.js"
import { TimeZones } from "../src/TimeZones.js"

const chat = [
  "31/12/2023, 21:15 - Messages and calls are end-to-end encrypted. No one outside of this chat can read them.",
  "31/12/2023, 21:15 - José Núñez: Ana starts at the clinic in March.",
  "31/12/2023, 21:16 - José Núñez: ok",
  "31/12/2023, 21:16 - José Núñez: ok",
  "01/01/2024, 09:00 - Mia: remind me: tea"
].join("\n")

const options = { provider: "whatsapp", senderId: "351910000001", format: "whatsapp-export", idle: Duration.hours(1), quiet: true } as const

/** What the import before the upgrade recorded: each message under the id it gave then. */
const importedBeforeTheUpgrade = (ids: ReadonlyArray<string>) =>
  Effect.forEach(Either.getOrThrow(parseWhatsAppExport(chat)), (message, index) =>
    Ingest.capture(NewMessage.make({
      provider: "whatsapp",
      providerMessageId: exportedMessageId("whatsapp-export", ids[index]!),
      senderId: options.senderId,
      chatId: options.senderId,
      senderName: null,
      text: message.text,
      kind: message.kind,
      forwardedFrom: message.author,
      replyTo: null,
      attachments: [], links: [], mediaGroup: null,
      sentAt: message.sentAt
    })))

const texts = Effect.flatMap(EventStore, (store) =>
  Stream.runCollect(store.readAll(start, { types: ["MessageReceived"] }))).pipe(
    Effect.map((events) => [...events].map((e) => e.event._tag === "MessageReceived" ? e.event.message.text : ""))
  )

describe("importing a WhatsApp export again after its ids named the chat", () => {
  it.live("records nothing new: every message is found under the id the earlier version gave it", () =>
    Effect.gen(function*() {
      // The ids the parser at 90e7a08 gave these lines, before the chat was part of them.
      yield* importedBeforeTheUpgrade([
        "2023-12-31T21:15:00.000Z/8b62189b/1",
        "2023-12-31T21:16:00.000Z/79affe66/1",
        "2023-12-31T21:16:00.000Z/79affe66/2",
        "2024-01-01T09:00:00.000Z/2ee78d3f/1"
      ])
      const summary = yield* importMessages(Either.getOrThrow(parseWhatsAppExport(chat)), options)
      expect({ recorded: summary.recorded, alreadyRecorded: summary.alreadyRecorded }).toEqual({ recorded: 0, alreadyRecorded: 4 })
      expect(yield* texts).toEqual(["Ana starts at the clinic in March.", "ok", "ok", "remind me: tea"])
    }).pipe(Effect.provide(Layer.merge(Database.sqlite(), TimeZones.layerZone("UTC")))))

  it.live("an export never imported before is recorded whole, under the ids that name its chat", () =>
    Effect.gen(function*() {
      const summary = yield* importMessages(Either.getOrThrow(parseWhatsAppExport(chat)), options)
      expect({ recorded: summary.recorded, alreadyRecorded: summary.alreadyRecorded }).toEqual({ recorded: 4, alreadyRecorded: 0 })
      expect(yield* texts).toEqual(["Ana starts at the clinic in March.", "ok", "ok", "remind me: tea"])
    }).pipe(Effect.provide(Layer.merge(Database.sqlite(), TimeZones.layerZone("UTC")))))
})

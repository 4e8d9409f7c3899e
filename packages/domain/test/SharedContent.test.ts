/**
 * What a person shares besides typed text, on both providers: contacts, locations, venues and
 * polls become a plain line of text marked with their kind; links behind words are kept beside
 * the text; an album's messages name their group. Each item is asserted whole.
 */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either } from "effect"
import { attachment } from "../src/Attachment.js"
import { decodeTelegram, decodeWhatsApp } from "../src/Inbound/Decode.js"
import type { Inbound } from "../src/Inbound/Inbound.js"
import { normaliseTelegram } from "../src/Inbound/normaliseTelegram.js"
import { normaliseWhatsApp } from "../src/Inbound/normaliseWhatsApp.js"

const now = DateTime.unsafeMake("2026-01-02T03:04:05Z")

const telegram = (extra: Record<string, unknown>): ReadonlyArray<Inbound> =>
  Either.match(
    decodeTelegram(JSON.stringify({
      update_id: 7,
      message: { message_id: 9, from: { id: 5, first_name: "Eve" }, chat: { id: 5, type: "private" }, date: 100, ...extra }
    })),
    { onLeft: (e) => { throw new Error(e.message) }, onRight: (update) => normaliseTelegram(update, now) }
  )

const whatsapp = (message: Record<string, unknown>): ReadonlyArray<Inbound> =>
  Either.match(
    decodeWhatsApp(JSON.stringify({
      object: "whatsapp_business_account",
      entry: [{
        id: "1",
        changes: [{
          field: "messages",
          value: { messaging_product: "whatsapp", messages: [{ from: "351910000001", id: "wamid.A", timestamp: "100", ...message }] }
        }]
      }]
    })),
    { onLeft: (e) => { throw new Error(e.message) }, onRight: normaliseWhatsApp }
  )

/** A captured message of nothing but text, from `sender` in their private chat; kind and text added per case. */
const captured = (provider: "telegram" | "whatsapp", providerMessageId: string, sender: string, senderName: string | null) => ({
  _tag: "NewMessage",
  provider,
  providerMessageId,
  senderId: sender,
  chatId: sender,
  senderName,
  forwardedFrom: null,
  replyTo: null,
  attachments: [],
  links: [],
  mediaGroup: null,
  sentAt: DateTime.unsafeMake(100_000)
} as const)

const fromEve = captured("telegram", "5:9", "5", "Eve")
const fromAna = captured("whatsapp", "wamid.A", "351910000001", null)

describe("Telegram: shared content becomes text of its kind", () => {
  it("renders a contact, a location, a venue and a poll", () => {
    expect([
      telegram({ contact: { phone_number: "+351 912 345 678", first_name: "Ana", last_name: "Souza", user_id: 77 } }),
      telegram({ location: { latitude: 38.7223, longitude: -9.1393 } }),
      telegram({
        location: { latitude: 38.7107, longitude: -9.1421 },
        venue: { location: { latitude: 38.7107, longitude: -9.1421 }, title: "A Brasileira", address: "Rua Garrett 120" }
      }),
      telegram({ poll: { id: "p", question: "Dinner?", options: [{ text: "Friday", voter_count: 0 }, { text: "Saturday", voter_count: 0 }] } })
    ]).toEqual([
      [{ ...fromEve, kind: "contact", text: "Contact: Ana Souza, +351 912 345 678" }],
      [{ ...fromEve, kind: "location", text: "Location: 38.7223, -9.1393" }],
      [{ ...fromEve, kind: "location", text: "Location: A Brasileira, Rua Garrett 120 (38.7107, -9.1421)" }],
      [{ ...fromEve, kind: "poll", text: "Poll: Dinner? — Friday / Saturday" }]
    ])
  })

  it("keeps the URL behind a text_link beside the text, which stays as sent, for text and for a caption", () => {
    const text = "Ana's 🎨 portfolio and her CV"
    expect([
      telegram({
        text,
        entities: [
          { type: "bold", offset: 0, length: 5 },
          { type: "text_link", offset: 9, length: 9, url: "https://ana.example/portfolio" },
          { type: "text_link", offset: 27, length: 2, url: "https://ana.example/cv.pdf" }
        ]
      }),
      telegram({
        photo: [{ file_id: "P1", file_unique_id: "U1", width: 90, height: 60 }],
        caption: "the menu",
        caption_entities: [{ type: "text_link", offset: 4, length: 4, url: "https://cafe.example/menu" }]
      })
    ]).toEqual([
      [{
        ...fromEve,
        kind: "text",
        text,
        links: [
          { offset: 9, length: 9, url: "https://ana.example/portfolio" },
          { offset: 27, length: 2, url: "https://ana.example/cv.pdf" }
        ]
      }],
      [{
        ...fromEve,
        kind: "caption",
        text: "the menu",
        attachments: [attachment("photo", "P1", { uniqueId: "U1", width: 90, height: 60 })],
        links: [{ offset: 4, length: 4, url: "https://cafe.example/menu" }]
      }]
    ])
    expect(text.slice(9, 18)).toEqual("portfolio")
  })

  it("names an album's group on each of its photos, and keeps a document's name and size", () => {
    expect([
      telegram({ media_group_id: "13579", photo: [{ file_id: "small" }, { file_id: "large", file_size: 2048 }], caption: "the trip" }),
      telegram({ media_group_id: "13579", photo: [{ file_id: "second" }] }),
      telegram({ document: { file_id: "D1", file_name: "cv.pdf", mime_type: "application/pdf", file_size: 52000 } })
    ]).toEqual([
      [{ ...fromEve, kind: "caption", text: "the trip", attachments: [attachment("photo", "large", { size: 2048 })], mediaGroup: "13579" }],
      [{ ...fromEve, kind: "media-without-text", text: "", attachments: [attachment("photo", "second")], mediaGroup: "13579" }],
      [{
        ...fromEve,
        kind: "media-without-text",
        text: "",
        attachments: [attachment("document", "D1", { fileName: "cv.pdf", mimeType: "application/pdf", size: 52000 })]
      }]
    ])
  })
})

describe("WhatsApp: shared content becomes text of its kind", () => {
  it("renders shared contacts (one line each) and a location, with and without a name", () => {
    expect([
      whatsapp({
        type: "contacts",
        contacts: [
          { name: { formatted_name: "Ana Souza", first_name: "Ana" }, phones: [{ phone: "+351 912 345 678", wa_id: "351912345678", type: "CELL" }] },
          { name: { formatted_name: "Bo" }, phones: [{ phone: "+1 555 0100" }, { phone: "+1 555 0101" }] }
        ]
      }),
      whatsapp({ type: "location", location: { latitude: 38.7223, longitude: -9.1393 } }),
      whatsapp({ type: "location", location: { latitude: 38.7107, longitude: -9.1421, name: "A Brasileira", address: "Rua Garrett 120" } })
    ]).toEqual([
      [{ ...fromAna, kind: "contact", text: "Contact: Ana Souza, +351 912 345 678\nContact: Bo, +1 555 0100, +1 555 0101" }],
      [{ ...fromAna, kind: "location", text: "Location: 38.7223, -9.1393" }],
      [{ ...fromAna, kind: "location", text: "Location: A Brasileira, Rua Garrett 120 (38.7107, -9.1421)" }]
    ])
  })

  it("names what it still ignores by kind", () => {
    expect([whatsapp({ type: "unsupported", errors: [{ code: 131051 }] }), whatsapp({ type: "system", system: { body: "changed" } })])
      .toEqual([
        [{ _tag: "Ignored", provider: "whatsapp", kind: "unsupported", reason: "message type not handled: unsupported" }],
        [{ _tag: "Ignored", provider: "whatsapp", kind: "system", reason: "message type not handled: system" }]
      ])
  })
})

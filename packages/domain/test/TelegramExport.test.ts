import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either } from "effect"
import { parseTelegramExport } from "../src/Inbound/TelegramExport.js"

const exported = JSON.stringify({
  name: "Zoë Çelik",
  type: "personal_chat",
  id: 4242,
  messages: [
    { id: 1, type: "service", date: "2024-03-01T09:00:00", date_unixtime: "1709283600", actor: "Zoë Çelik", action: "phone_call" },
    {
      id: 2, type: "message", date: "2024-03-01T09:01:00", date_unixtime: "1709283660", from: "Zoë Çelik", from_id: "user4242",
      text: "Bob's birthday is on the 12th.\nHe likes jazz.", text_entities: []
    },
    {
      id: 3, type: "message", date: "2024-03-01T09:02:00", date_unixtime: "1709283720", from: "Zoë Çelik", from_id: "user4242",
      forwarded_from: "Bob Ray", text: ["Call me at ", { type: "phone", text: "+1 555 0100" }, " after 6"], reply_to_message_id: 2
    },
    {
      id: 4, type: "message", date: "2024-03-01T09:03:00", from: "Zoë Çelik", photo: "photos/photo_1.jpg",
      width: 800, height: 600, text: ""
    },
    {
      id: 5, type: "message", date: "2024-03-01T09:04:00", date_unixtime: "1709283840", from: "Zoë Çelik",
      file: "voice_messages/audio_1.ogg", media_type: "voice_message", text: "listen"
    }
  ]
})

const at = (iso: string) => DateTime.unsafeMake(iso)

describe("parseTelegramExport", () => {
  it("reads text, entity arrays, forwards, replies and media, and skips service entries", () => {
    expect(parseTelegramExport(exported)).toEqual(Either.right([
      {
        exportId: "4242:2", author: "Zoë Çelik", authorId: "user4242", forwardedFrom: null, sentAt: at("2024-03-01T09:01:00Z"),
        text: "Bob's birthday is on the 12th.\nHe likes jazz.", kind: "text", links: [], replyTo: null, location: "message 2"
      },
      {
        exportId: "4242:3", author: "Zoë Çelik", authorId: "user4242", forwardedFrom: "Bob Ray", sentAt: at("2024-03-01T09:02:00Z"),
        text: "Call me at +1 555 0100 after 6", kind: "text", links: [], replyTo: "4242:2", location: "message 3"
      },
      {
        exportId: "4242:4", author: "Zoë Çelik", forwardedFrom: null, sentAt: at("2024-03-01T09:03:00Z"),
        text: "", kind: "media-without-text", links: [], replyTo: null, location: "message 4"
      },
      {
        exportId: "4242:5", author: "Zoë Çelik", forwardedFrom: null, sentAt: at("2024-03-01T09:04:00Z"),
        text: "listen", kind: "caption", links: [], replyTo: null, location: "message 5"
      }
    ]))
  })

  it("renders polls, shared contacts and locations (a venue by its name) as text", () => {
    const entry = (id: number, fields: object) => ({ id, type: "message", date: "2024-03-01T09:00:00", from: "Ana", text: "", ...fields })
    const chat = JSON.stringify({
      id: 7,
      messages: [
        entry(1, { poll: { question: "Dinner?", closed: false, total_voters: 2, answers: [{ text: "Friday", voters: 1 }, { text: "Saturday", voters: 1 }] } }),
        entry(2, { contact_information: { first_name: "Ana", last_name: "Souza", phone_number: "+351 912 345 678" }, contact_vcard: "contacts/contact_1.vcf" }),
        entry(3, { location_information: { latitude: 38.7223, longitude: -9.1393 } }),
        entry(4, { location_information: { latitude: 38.7, longitude: -9.14 }, place_name: "Café A Brasileira", address: "Rua Garrett 120", text: "here" }),
        entry(5, { contact_information: { first_name: "Tom", last_name: "", phone_number: "" } })
      ]
    })
    expect(Either.map(parseTelegramExport(chat), (messages) => messages.map((m) => [m.exportId, m.kind, m.text]))).toEqual(Either.right([
      ["7:1", "poll", "Poll: Dinner? — Friday / Saturday"],
      ["7:2", "contact", "Contact: Ana Souza, +351 912 345 678"],
      ["7:3", "location", "Location: 38.7223, -9.1393"],
      ["7:4", "location", "Location: Café A Brasileira, Rua Garrett 120 (38.7, -9.14)\nhere"],
      ["7:5", "contact", "Contact: Tom"]
    ]))
  })

  it("names the message and the field that does not decode", () => {
    const broken = JSON.stringify({ id: 1, messages: [{ id: 1, type: "message", date: "2024-03-01T09:01:00" }, { id: "x", type: "message" }] })
    expect(Either.mapLeft(parseTelegramExport(broken), (e) => e.message)).toEqual(Either.left(
      "message 2: id: Expected number, actual \"x\"; date: is missing; the file may be damaged, export it again"
    ))
  })

  it("refuses ids that are not exactly one integer and an epoch that is not plain digits, naming message and field", () => {
    const entry = { id: 2, type: "message", date: "2024-03-01T09:01:00", date_unixtime: "1709283660", from: "Zoë", text: "hi" }
    const parse = (chat: Record<string, unknown>, fields: Record<string, unknown>, id = "2") =>
      Either.mapLeft(parseTelegramExport(JSON.stringify({ id: 4242, messages: [{ ...entry, ...fields }], ...chat }).replace("\"ID\"", id)),
        (e) => e.message)
    const notAnId = "a whole number between -9007199254740991 and 9007199254740991, not -0"
    const damaged = "the file may be damaged, export it again"
    expect([
      parse({}, { id: "ID" }, "1.5"),
      parse({}, { id: "ID" }, "-0"),
      parse({}, { reply_to_message_id: "ID" }, "9007199254740993"),
      parse({ id: "ID" }, {}, "1e300"),
      parse({}, { date_unixtime: "1e9" }),
      parse({}, { date_unixtime: " 1709283660" }),
      parse({}, { date_unixtime: "" })
    ]).toEqual([
      Either.left(`message 1: id: ${notAnId}; ${damaged}`),
      Either.left(`message 1: id: ${notAnId}; ${damaged}`),
      Either.left(`message 1: reply_to_message_id: ${notAnId}; ${damaged}`),
      Either.left(`not a single-chat export: id: ${notAnId}; use "Export chat history" on one chat`),
      Either.left(`message 1: date_unixtime: unix seconds as plain decimal digits, actual "1e9"; ${damaged}`),
      Either.left(`message 1: date_unixtime: unix seconds as plain decimal digits, actual " 1709283660"; ${damaged}`),
      Either.left(`message 1: date_unixtime: unix seconds as plain decimal digits, actual ""; ${damaged}`)
    ])
  })

  it("keeps the URL of each text_link beside the text, at its offset, also after a rendered location", () => {
    const entry = (id: number, fields: object) => ({ id, type: "message", date: "2024-03-01T09:00:00", from: "Ana", ...fields })
    const parts = ["See ", { type: "text_link", text: "Ana's 🎨 site", href: "https://ana.example" }, " and ", { type: "bold", text: "this" }]
    const chat = JSON.stringify({
      id: 7,
      messages: [
        entry(1, { text: parts }),
        entry(2, { location_information: { latitude: 1, longitude: 2 }, text: [{ type: "text_link", text: "map", href: "https://map.example" }] })
      ]
    })
    expect(Either.map(parseTelegramExport(chat), (messages) => messages.map((m) => [m.kind, m.text, m.links]))).toEqual(Either.right([
      ["text", "See Ana's 🎨 site and this", [{ offset: 4, length: 13, url: "https://ana.example" }]],
      ["location", "Location: 1, 2\nmap", [{ offset: 15, length: 3, url: "https://map.example" }]]
    ]))
  })

  it("refuses text that is not JSON, or not one chat", () => {
    expect(Either.mapLeft(parseTelegramExport("{"), (e) => e.message.replace(/\(.*\)/, "(…)"))).toEqual(Either.left(
      "not JSON (…); export the chat from Telegram Desktop with \"Format: JSON\""
    ))
    expect(Either.mapLeft(parseTelegramExport(JSON.stringify({ chats: { list: [] } })), (e) => e.message)).toEqual(Either.left(
      "not a single-chat export: id: is missing; messages: is missing; use \"Export chat history\" on one chat"
    ))
  })
})

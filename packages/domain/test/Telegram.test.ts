import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either } from "effect"
import { attachment } from "../src/Attachment.js"
import { decodeTelegram } from "../src/Inbound/Decode.js"
import type { Inbound } from "../src/Inbound/Inbound.js"
import { normaliseTelegram } from "../src/Inbound/normaliseTelegram.js"
import { webhookFixture } from "./fixtures.js"

const now = DateTime.unsafeMake("2026-01-02T03:04:05Z")
const at = (unixSeconds: number) => DateTime.unsafeMake(unixSeconds * 1000)

const normaliseText = (body: string): ReadonlyArray<Inbound> =>
  Either.match(decodeTelegram(body), {
    onLeft: (error) => {
      throw new Error(error.message)
    },
    onRight: (update) => normaliseTelegram(update, now)
  })

const normalise = (file: string) => normaliseText(webhookFixture("telegram", file))

const dave = { provider: "telegram", senderId: "100000004", chatId: "-1000000000001", senderName: "Dave" } as const

describe("Telegram fixtures", () => {
  it("01 private text message", () => {
    expect(normalise("01_text_private.json")).toEqual([{
      _tag: "NewMessage",
      provider: "telegram",
      providerMessageId: "100000001:6557",
      senderId: "100000001",
      chatId: "100000001",
      senderName: "Alice",
      text: "hello there",
      kind: "text",
      forwardedFrom: null,
      replyTo: null,
      attachments: [], links: [], mediaGroup: null,
      sentAt: at(1569518342)
    }])
  })

  it("02 forward: forward_origin wins over the legacy fields", () => {
    expect(normalise("02_forwarded_text_forward_origin_plus_legacy.json")).toEqual([{
      _tag: "NewMessage",
      provider: "telegram",
      providerMessageId: "100000002:668",
      senderId: "100000002",
      chatId: "100000002",
      senderName: "Bob Example",
      text: "Jupp",
      kind: "text",
      forwardedFrom: "Carol Example",
      replyTo: null,
      attachments: [], links: [], mediaGroup: null,
      sentAt: at(1704136224)
    }])
  })

  it("03 photo with caption: kind caption, largest size kept", () => {
    expect(normalise("03_photo_with_caption_supergroup.json")).toEqual([{
      _tag: "NewMessage",
      ...dave,
      providerMessageId: "-1000000000001:58",
      text: "OK - some mages",
      kind: "caption",
      forwardedFrom: null,
      replyTo: null,
      attachments: [attachment("photo", "AgACAgQAAyEFAATtoKNZAAM6aepxRQo9Uju7xRp8d7woe6ofcWkAAgwMaxspbVlTU0UxQrtPz5UBAAMCAAN5AAM7BA", {
        uniqueId: "AQADDAxrGyltWVN-",
        size: 151590,
        width: 720,
        height: 1280
      })], links: [], mediaGroup: null,
      sentAt: at(1776972101)
    }])
  })

  it("04 voice without caption is captured with empty text", () => {
    expect(normalise("04_voice_supergroup.json")).toEqual([{
      _tag: "NewMessage",
      ...dave,
      providerMessageId: "-1000000000001:56",
      text: "",
      kind: "media-without-text",
      forwardedFrom: null,
      replyTo: null,
      attachments: [attachment("voice", "AwACAgQAAyEFAATtoKNZAAM4aepxAh2vKjfqLHAaipHgqUxlnZYAAgYaAAIpbVlTTGxj9NGdrwE7BA", {
        uniqueId: "AgADBhoAAiltWVM",
        mimeType: "audio/ogg",
        size: 14663,
        duration: 3
      })], links: [], mediaGroup: null,
      sentAt: at(1776972034)
    }])
  })

  it("05 supergroup text", () => {
    expect(normalise("05_text_supergroup.json")).toEqual([{
      _tag: "NewMessage",
      ...dave,
      providerMessageId: "-1000000000001:55",
      text: "wewew",
      kind: "text",
      forwardedFrom: null,
      replyTo: null,
      attachments: [], links: [], mediaGroup: null,
      sentAt: at(1776972025)
    }])
  })

  it("06 edited message (legacy shape without is_bot)", () => {
    expect(normalise("06_edited_message_official_sample.json")).toEqual([{
      _tag: "Edit",
      provider: "telegram",
      providerMessageId: "1111111:1365",
      senderId: "1111111",
      chatId: "1111111",
      senderName: "Test Firstname Test Lastname",
      text: "Edited text",
      kind: "text",
      forwardedFrom: null,
      replyTo: null,
      attachments: [], links: [], mediaGroup: null,
      sentAt: at(1441645532),
      editKey: "edit:10000",
      editedAt: at(1441646600)
    }])
  })

  it("07 callback query on an inline message answers in the presser's chat", () => {
    expect(normalise("07_callback_query_official_sample_ha.json")).toEqual([{
      _tag: "Answer",
      provider: "telegram",
      providerMessageId: "callback:4382bfdwdsb323b2d9",
      senderId: "12345678",
      chatId: "12345678",
      callbackId: "4382bfdwdsb323b2d9",
      // An inline message has no chat message to take the buttons from.
      askedIn: null,
      data: "Data from button callback",
      answeredAt: now
    }])
  })

  it("08 reply to a story: replyTo is the replied message's chat-scoped id", () => {
    expect(normalise("08_reply_to_message_supergroup.json")).toEqual([{
      _tag: "NewMessage",
      provider: "telegram",
      providerMessageId: "-1000000000002:134546",
      senderId: "100000005",
      chatId: "-1000000000002",
      senderName: "Erin",
      text: "/report",
      kind: "text",
      forwardedFrom: null,
      replyTo: "-1000000000002:134545",
      attachments: [], links: [], mediaGroup: null,
      sentAt: at(1721592580)
    }])
  })
})

const message = (extra: Record<string, unknown>) =>
  JSON.stringify({
    update_id: 7,
    message: { message_id: 9, from: { id: 5, first_name: "Eve" }, chat: { id: 5, type: "private" }, date: 100, ...extra }
  })

const forwardOf = (extra: Record<string, unknown>) => {
  const [item] = normaliseText(message({ text: "hi", ...extra }))
  return item?._tag === "NewMessage" ? item.forwardedFrom : `not a message: ${JSON.stringify(item)}`
}

describe("Telegram forwards and other kinds", () => {
  it("names every forward_origin type and falls back to the legacy fields", () => {
    const channel = { id: -100, type: "channel", title: "News" }
    expect([
      forwardOf({ forward_origin: { type: "hidden_user", sender_user_name: "Grace H", date: 1 } }),
      forwardOf({ forward_origin: { type: "chat", sender_chat: { id: -5, type: "group", title: "Team" }, date: 1 } }),
      forwardOf({ forward_origin: { type: "channel", chat: channel, message_id: 3, author_signature: "Ann", date: 1 } }),
      forwardOf({ forward_origin: { type: "story_teller", date: 1 } }),
      forwardOf({ forward_from_chat: channel, forward_date: 1 }),
      forwardOf({ forward_sender_name: "Hidden Harry", forward_date: 1 })
    ]).toEqual(["Grace H", "Team", "News (Ann)", "forwarded", "News", "Hidden Harry"])
  })

  it("captions a document and captures a sticker as media without text", () => {
    const kinds = [
      normaliseText(message({ document: { file_id: "D1" }, caption: "the contract" })),
      normaliseText(message({ sticker: { file_id: "S1", type: "regular" } }))
    ].map((items) => items.map((item) => item._tag === "NewMessage" ? [item.kind, item.text, item.attachments] : item))
    expect(kinds).toEqual([
      [["caption", "the contract", [attachment("document", "D1")]]],
      [["media-without-text", "", [attachment("sticker", "S1")]]]
    ])
  })

  it("ignores update kinds it does not handle, saying which", () => {
    expect([
      normaliseText(JSON.stringify({ update_id: 1, channel_post: { message_id: 1, chat: { id: -1, type: "channel" }, date: 1 } })),
      normaliseText(JSON.stringify({ update_id: 2, my_chat_member: {} })),
      normaliseText(message({ dice: { emoji: "🎲", value: 4 } })),
      normaliseText(message({ forward_origin: { type: "hidden_user", sender_user_name: "X", date: 1 }, reply_to_message: { message_id: 1 }, game: {} }))
    ]).toEqual([
      [{ _tag: "Ignored", provider: "telegram", kind: "channel_post", reason: "update kind not handled: channel_post" }],
      [{ _tag: "Ignored", provider: "telegram", kind: "my_chat_member", reason: "update kind not handled: my_chat_member" }],
      [{ _tag: "Ignored", provider: "telegram", kind: "dice", reason: "message of a kind not captured: dice" }],
      [{ _tag: "Ignored", provider: "telegram", kind: "game", reason: "message of a kind not captured: game" }]
    ])
  })
})

import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either } from "effect"
import { isBotChat, userSide } from "../src/Inbound/BotChat.js"
import { readTelegramExport } from "../src/Inbound/TelegramExport.js"
import { botChatExport as botChat } from "@verbatim/testkit/BotChatExport"

const read = (text: string) => Either.getOrThrow(readTelegramExport(text))

describe("an export of the user's own chat with the bot", () => {
  it("reads the chat's type and id and each message's author id", () => {
    const exported = read(botChat)
    expect(exported.chat).toEqual({ id: "777", type: "bot_chat" })
    expect(exported.messages.map((m) => [m.exportId, m.authorId, m.author])).toEqual([
      ["777:90", "user4242", "Zoë"], ["777:91", "user777", "Verbatim"], ["777:92", "user4242", "Zoë"], ["777:93", "user4242", "Zoë"]
    ])
  })

  it("is this bot's chat when Telegram says bot_chat and the bot's id is this bot's or unknown", () => {
    const chat = read(botChat).chat
    expect([isBotChat(chat, null), isBotChat(chat, "777"), isBotChat(chat, "778"), isBotChat({ id: "777", type: "personal_chat" }, null)])
      .toEqual([true, true, false, false])
  })

  it("keeps the user's messages as their own words and leaves the bot's replies out", () => {
    expect(Either.map(userSide(read(botChat), "4242"), (side) => ({
      botReplies: side.botReplies,
      messages: side.messages.map((m) => [m.exportId, DateTime.formatIso(m.sentAt), m.byImporter, m.forwardedFrom, m.text])
    }))).toEqual(Either.right({
      botReplies: 1,
      messages: [
        ["777:90", "2024-03-01T09:00:00.000Z", true, null, "/start"],
        ["777:92", "2024-03-01T09:01:00.000Z", true, "Bob Ray", "Call me after 6"],
        ["777:93", "2024-03-01T09:01:30.000Z", true, null, "Bob is Ana's\nbrother"]
      ]
    }))
  })

  it("refuses another person's chat with the bot, naming the message", () => {
    expect(Either.mapLeft(userSide(read(botChat), "5151"), (e) => e.message)).toEqual(Either.left(
      "message 1: written by Zoë (user4242), not by telegram:5151; this is another person's chat with the bot: import it for the user who wrote it"
    ))
  })
})

/**
 * A Telegram Desktop export of the importing user's own chat with the bot. The bot's replies are
 * in it as the chat's other side: they are not the user's words and are left out. The user's
 * messages cannot be found in the log by id: Telegram numbers a private chat's messages per
 * account, so the ids the user's export gives them are not the `message_id`s the bot was given
 * (and the export's chat id is the bot's, the live one the user's). They are found by sender,
 * minute and text instead (`ImportMatch.ts`).
 */
import { Either } from "effect"
import { type ExportedMessage, ExportError } from "./ChatExport.js"
import type { TelegramChat, TelegramExport } from "./TelegramExport.js"

/** The user's side of their chat with the bot. */
export interface UserSide {
  /** The user's own messages, each marked `byImporter`. */
  readonly messages: ReadonlyArray<ExportedMessage>
  /** How many of the bot's replies were left out. */
  readonly botReplies: number
}

/**
 * Whether an export is of a chat with a bot that is this one: `botId` is this bot's user id when
 * known (a chat with another bot is forwarded material, like any other chat).
 */
export const isBotChat = (chat: TelegramChat, botId: string | null): boolean =>
  chat.type === "bot_chat" && (botId === null || chat.id === botId)

/**
 * The importing user's messages of their chat with the bot, without the bot's replies (written
 * by the chat's other side, `user<chat id>`). A message written by a third account means the
 * export is not this user's chat: an error, so nothing of it is filed as theirs.
 */
export const userSide = (exported: TelegramExport, senderId: string): Either.Either<UserSide, ExportError> => {
  const bot = `user${exported.chat.id}`
  const user = `user${senderId}`
  const messages: Array<ExportedMessage> = []
  let botReplies = 0
  for (const message of exported.messages) {
    if (message.authorId === bot) {
      botReplies += 1
    } else if (message.authorId !== undefined && message.authorId !== user) {
      return Either.left(new ExportError({
        format: "telegram-export",
        message: `${message.location}: written by ${message.author} (${message.authorId}), not by telegram:${senderId}; ` +
          `this is another person's chat with the bot: import it for the user who wrote it`
      }))
    } else {
      messages.push({ ...message, byImporter: true })
    }
  }
  return Either.right({ messages, botReplies })
}

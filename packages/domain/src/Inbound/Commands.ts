/** Commands a sender types to the bot rather than content to capture. Pure. */
import type { NewMessage } from "./Inbound.js"
import { chatProviderRules, isChatProvider } from "./Providers.js"

/**
 * What a command asks: close the session now, explain the bot (`/start` is Telegram's first
 * message to a bot), or send a one-time link to the web pages.
 */
export type BotCommand = "done" | "help" | "web"

/** `/name`, optionally addressed as `/name@bot` (Telegram groups, where several bots listen). */
const command = /^\/(done|start|help|web)(?:@(\w+))?$/i

/**
 * The command a message is, if it is the sender's own `/done`, `/start`, `/help` or `/web`. Telegram
 * `/done@name` is a command only when `name` is this bot's username (compared
 * case-insensitively, as Telegram does): in a group, `/done@OtherBot` is meant for another bot
 * and is content here. With no known username, and on WhatsApp (which has no `@bot` form), only
 * the plain form is a command. A forward or a caption reading `/done` is content, never a command.
 */
export const botCommand = (item: NewMessage, botUsername: string | null): BotCommand | null => {
  if (item.kind !== "text" || item.forwardedFrom !== null) return null
  const match = command.exec(item.text.trim())
  if (match === null) return null
  const addressee = match[2]
  const ours = addressee === undefined ||
    (isChatProvider(item.provider) && chatProviderRules[item.provider].namedCommands && botUsername !== null &&
      addressee.toLowerCase() === botUsername.toLowerCase())
  if (!ours) return null
  const name = match[1]!.toLowerCase()
  return name === "done" || name === "web" ? name : "help"
}

/** Whether a message is the sender's own `/done`, which closes their session at once. */
export const isDoneCommand = (item: NewMessage, botUsername: string | null): boolean => botCommand(item, botUsername) === "done"

/** Commands a sender types to the bot rather than content to capture. Pure. */
import type { NewMessage } from "./Inbound.js"
import { chatProviderRules, isChatProvider } from "./Providers.js"

/**
 * What a command asks: close the session now, explain the bot (`/start` is Telegram's first
 * message to a bot), send a one-time link to the web pages, show or set the sender's time zone
 * (`/tz Europe/Lisbon`), list their upcoming reminders, or ask a question of their notes
 * (`/ask what do I know about Ana?`).
 */
export type BotCommand = "done" | "help" | "web" | "tz" | "reminders" | "ask"

/**
 * `/name`, optionally addressed as `/name@bot` (Telegram groups, where several bots listen), and
 * for `/tz` a zone name after it, for `/ask` a question (on as many lines as it takes).
 */
const command = /^\/(done|start|help|web|tz|reminders|ask)(?:@(\w+))?(?:(\s+)(\S[\s\S]*))?$/i

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
  // Only `/tz` (on one line) and `/ask` take words after them: `/done for today` is content.
  if (match[4] !== undefined && !(name === "ask" || (name === "tz" && !`${match[3]}${match[4]}`.includes("\n")))) return null
  return name === "done" || name === "web" || name === "tz" || name === "reminders" || name === "ask" ? name : "help"
}

/** The words after `/tz` (a zone name) or `/ask` (a question), or null when there are none. */
export const commandArgument = (item: NewMessage): string | null => {
  const match = command.exec(item.text.trim())
  if (match?.[4] === undefined) return null
  // A question may take lines; any other command's words stand on its own line.
  return match[1]!.toLowerCase() === "ask" || !`${match[3]}${match[4]}`.includes("\n") ? match[4].trim() : null
}

/** Whether a message is the sender's own `/done`, which closes their session at once. */
export const isDoneCommand = (item: NewMessage, botUsername: string | null): boolean => botCommand(item, botUsername) === "done"

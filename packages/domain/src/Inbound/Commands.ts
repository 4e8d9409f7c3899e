/** Commands a sender types to the bot rather than content to capture. Pure. */
import type { NewMessage } from "./Inbound.js"

/** `/done`, optionally addressed as `/done@name` (Telegram groups, where several bots listen). */
const done = /^\/done(?:@(\w+))?$/i

/**
 * Whether a message is the sender's own `/done`, which closes their session at once. Telegram
 * `/done@name` closes only when `name` is this bot's username (compared case-insensitively,
 * as Telegram does): in a group, `/done@OtherBot` is meant for another bot and is content here.
 * With no known username, and on WhatsApp (which has no `@bot` form), only a plain `/done`
 * closes. A forward or a caption reading `/done` is content, never the command.
 */
export const isDoneCommand = (item: NewMessage, botUsername: string | null): boolean => {
  if (item.kind !== "text" || item.forwardedFrom !== null) return false
  const match = done.exec(item.text.trim())
  if (match === null) return false
  const addressee = match[1]
  if (addressee === undefined) return true
  return item.provider === "telegram" && botUsername !== null && addressee.toLowerCase() === botUsername.toLowerCase()
}

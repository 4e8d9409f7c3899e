/** How `verbatim import`, its `--dry-run` and `verbatim reconcile` print what they found: one line a message. */
import { DateTime } from "effect"
import type { Surveyed } from "../ImportSurvey.js"

/** How many messages the log already had, and which way each was found. */
export const foundLine = (byId: number, byContent: number): string =>
  `${byId + byContent} already recorded (${byId} by id, ${byContent} by sender, minute and text)`

/**
 * What was left out of the user's own chat with the bot: the commands, and the bot's replies (those
 * the export's parser told by their author, `parsed`, null when it could not, and those found by
 * their text among the replies the bot sent, `found`); nothing for any other export.
 */
export const leftOutLine = (commands: number, parsed: number | null, found: number): string =>
  parsed === null && found === 0 ? "" : `; from the chat with the bot, ${(parsed ?? 0) + found} bot reply(ies) and ${commands} command(s) left out`

const where = ({ message }: Surveyed) =>
  `${message.location}, ${DateTime.formatIso(message.sentAt)}, ${message.author}: ${JSON.stringify(message.text)}`

/** One surveyed message: what would happen to it, where the export has it, who wrote it and its exact text. */
export const surveyLine = (surveyed: Surveyed): string => {
  const standing = surveyed.standing
  switch (standing._tag) {
    case "Missing":
      return `  add     ${where(surveyed)}`
    case "ById":
      return `  have    ${where(surveyed)} (by id)`
    case "ByContent":
      return `  have    ${where(surveyed)} (by sender, minute and text: ${standing.providerMessageId})`
    case "Command":
      return `  skip    ${where(surveyed)} (a command to the bot)`
    case "BotReply":
      return `  skip    ${where(surveyed)} (the bot's reply ${standing.replyId})`
    case "Refused":
      return `  refuse  ${standing.why}`
  }
}

/** A missing message, as `reconcile` lists the gaps. */
export const gapLine = (surveyed: Surveyed): string => `  ${where(surveyed)}`

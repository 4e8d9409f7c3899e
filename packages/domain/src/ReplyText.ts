/**
 * What the bot says back, as pure functions of what was recorded: a reply never claims more or
 * fewer notes than the decisions hold, and every warning the sender can act on is said plainly.
 */
import type { Candidate, Owner, PlanWarning, QuestionReason } from "./Decision.js"
import { type Provider, QuestionId } from "./Ids.js"
import { replyLimitOf } from "./Inbound/Providers.js"

/** The label of a note's owner or of an answer option. */
export const ownerLabel = (owner: Owner | Candidate): string => (owner._tag === "Person" ? owner.name : "your own notes")

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`

/** Warnings the sender can do something about; the rest are repaired silently and kept in the log. */
const spokenWarnings = new Set<PlanWarning["code"]>([
  "directive-not-found",
  "directive-disputed",
  "directive-overlap",
  "bot-message-kept-as-note"
])

/** A note's owner in a summary: `key` names one person (or the user's own notes), `label` as the plan spelled it. */
export interface NoteOwner {
  readonly key: string
  readonly label: string
}

/** Instructions quoted in a summary, each cut to this many characters; past `quotedInstructions`, counted. */
const instructionExcerpt = 80
const quotedInstructions = 5

/** What was taken as meant for the bot, quoted, so the sender sees it and can object. */
const instructionLine = (instructions: ReadonlyArray<{ readonly text: string }>): string => {
  if (instructions.length === 0) return ""
  const quoted = instructions.slice(0, quotedInstructions).map((i) => `“${cut(i.text.trim(), instructionExcerpt)}”`)
  const more = instructions.length > quotedInstructions ? ` and ${instructions.length - quotedInstructions} more` : ""
  return `\nTaken as meant for me, so kept out of the notes: ${quoted.join(", ")}${more}.`
}

/**
 * "Added 2 notes: Alice, Bob. 1 question." — people in note order, each once however the plan
 * spelled them (as first spelled); then what was taken as instructions to the bot, quoted; then
 * one line per warning worth saying.
 */
export const planSummary = (input: {
  readonly owners: ReadonlyArray<NoteOwner>
  readonly questions: number
  readonly instructions: ReadonlyArray<{ readonly text: string }>
  readonly warnings: ReadonlyArray<PlanWarning>
  /** What the attachments filed without their text are (see `Media.unread`): `voice note`, `photo`. */
  readonly unread?: ReadonlyArray<string>
}): string => {
  const names = new Map<string, string>()
  for (const o of input.owners) if (!names.has(o.key)) names.set(o.key, o.label)
  const notes = input.owners.length === 0
    ? "Added no notes."
    : `Added ${plural(input.owners.length, "note", "notes")}: ${[...names.values()].join(", ")}.`
  const questions = input.questions === 0 ? "" : ` ${plural(input.questions, "question", "questions")}.`
  const warnings = input.warnings.filter((w) => spokenWarnings.has(w.code)).map((w) => `\n- ${w.message}`)
  // Why each could not be read is a provider's or a program's detail: the note and the log say it, the chat does not.
  const unread = input.unread === undefined || input.unread.length === 0
    ? ""
    : input.unread.length === 1
    ? `\nI couldn't read this ${input.unread[0]}: it is filed as what it is, and the note says why.`
    : `\nI couldn't read ${input.unread.map((kind) => `this ${kind}`).join(" or ")}: they are filed as what they are, and the note says why.`
  return notes + questions + instructionLine(input.instructions) + unread + warnings.join("")
}

/**
 * The one reply an import sends for all its sessions (they send none each): "Imported 632
 * messages into 12 conversations. …". Their notes are not planned yet, so it says where the
 * questions will wait rather than counting them.
 */
export const importSummary = (input: { readonly recorded: number; readonly sessions: number; readonly refused: number }): string =>
  `Imported ${plural(input.recorded, "message", "messages")} into ${plural(input.sessions, "conversation", "conversations")}. ` +
  "Their notes are filed as they are planned, without a reply each; questions about them are listed on /api/questions." +
  (input.refused === 0 ? "" : ` ${plural(input.refused, "message was", "messages were")} refused (the import names them).`)

const questionLead: Record<Exclude<QuestionReason, "corrected">, string> = {
  unclear: "Who is this about?",
  contested: "I could not tell who this is about.",
  unplanned: "I did not know where to file this.",
  failed: "I could not sort these messages yet; they are kept safe and will be filed when planning works again."
}

const ownerName = (candidate: Candidate): string => candidate._tag === "Person" ? candidate.name : "your own notes"

/**
 * Why a question is asked. A correction a new plan no longer fits names the user's choice (the
 * first candidate) and where the plan filed the messages (the rest).
 */
export const questionLeadOf = (reason: QuestionReason, candidates: ReadonlyArray<Candidate> = []): string => {
  if (reason !== "corrected") return questionLead[reason]
  const [mine, ...planned] = candidates
  const where = planned.length === 0 ? "are no longer filed together" : `are filed under ${planned.map(ownerName).join(" and ")}`
  return `After an update, these messages ${where}; you had moved them to ${mine === undefined ? "another note" : ownerName(mine)}. Where do they belong?`
}

/**
 * The longest reply text a provider delivers, in UTF-16 code units (never fewer than its own
 * unit): Telegram's message 4,096 characters; WhatsApp's text body 4,096 and, with buttons or a
 * list, its interactive body 1,024. A longer text is refused, and the user would never see it.
 */
export const replyLimit = (provider: Provider, withChoices: boolean): number => replyLimitOf(provider, withChoices)

/** Longest excerpt of a message shown in a question; the note will hold the whole text. */
export const excerptLength = 280

/** Shorter excerpts than this say too little: past it, a question names fewer messages instead. */
const shortestExcerpt = 40

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" })

/** A text's length in UTF-16 code units. */
const utf16Length = (text: string): number => text.length

/**
 * At most `max` of `text` (in UTF-16 units, or in the unit `length` counts), cut between
 * graphemes and marked with an ellipsis. Text that fits is returned unchanged.
 */
export const cut = (text: string, max: number, length: (text: string) => number = utf16Length): string => {
  if (length(text) <= max) return text
  let kept = ""
  for (const { segment } of graphemes.segment(text)) {
    if (length(kept) + length(segment) > max - 1) break
    kept += segment
  }
  return `${kept.trimEnd()}…`
}

const unshownLine = (unshown: number): string => `…and ${plural(unshown, "more message", "more messages")}.`

const renderQuestion = (lead: string, excerpts: ReadonlyArray<string>, unshown: number): string =>
  [lead, ...excerpts.map((text) => `«${text}»`), ...(unshown === 0 ? [] : [unshownLine(unshown)])].join("\n\n")

/**
 * The text of a question: why it is asked and the messages it concerns, within `limit`. Each
 * message is shown up to `excerptLength`; when they do not all fit, every excerpt is shortened
 * alike, and below `shortestExcerpt` the last messages are counted instead of shown. Linear in
 * the messages (times the log of the excerpt length): a question may concern a whole session.
 */
export const questionText = (
  reason: QuestionReason,
  texts: ReadonlyArray<string>,
  limit = replyLimit("telegram", true),
  candidates: ReadonlyArray<Candidate> = []
): string => {
  const lead = cut(questionLeadOf(reason, candidates), Math.floor(limit / 2))
  // How many messages fit at the shortest excerpt: each adds its excerpt, « », and a blank line;
  // all of them need no "…and N more" line, so they may fit where all but one and that line do not.
  const sizes = texts.map((text) => 4 + cut(text, shortestExcerpt).length)
  let count = 0
  if (lead.length + sizes.reduce((sum, size) => sum + size, 0) <= limit) count = texts.length
  else {
    let used = lead.length
    while (count < texts.length && used + sizes[count]! + 2 + unshownLine(texts.length - count - 1).length <= limit) {
      used += sizes[count]!
      count += 1
    }
  }
  const shown = texts.slice(0, count)
  const fits = (length: number) => renderQuestion(lead, shown.map((t) => cut(t, length)), texts.length - count).length <= limit
  let length = shortestExcerpt
  for (let step = excerptLength; step >= 1; step = Math.floor(step / 2)) {
    while (length + step <= excerptLength && fits(length + step)) length += step
  }
  return cut(renderQuestion(lead, shown.map((t) => cut(t, length)), texts.length - count), limit)
}

/** The options offered: each candidate, then "keep as my own note". */
export const answerOptions = (candidates: ReadonlyArray<Candidate>): ReadonlyArray<Candidate> => {
  const people = candidates.filter((c) => c._tag === "Person")
  return [...people, { _tag: "Unattached" }]
}

/** Button label for an option. */
export const optionLabel = (candidate: Candidate): string =>
  candidate._tag === "Person" ? candidate.name : "Keep as my own note"

/** Callback data of an option: short enough for Telegram's 64-byte limit with uuid-based ids. */
export const answerData = (questionId: string, option: number): string => `a:${questionId}:${option}`

/** Reads callback data written by `answerData`. */
export const parseAnswerData = (data: string): { readonly questionId: QuestionId; readonly option: number } | null => {
  const match = /^a:(.+):(\d{1,3})$/.exec(data)
  return match === null ? null : { questionId: QuestionId.make(match[1]!), option: Number(match[2]) }
}

/** What the bot says to `/start` and `/help`: what it does, how a session closes, its commands. */
export const helpText = [
  "I keep notes about the people you know, in your own words.",
  "",
  "Send or forward me messages: they gather into a session. When you stop for a while, or send /done, I sort the session into notes about the people it mentions and tell you what I filed. When I cannot tell who a message is about, I ask, with buttons.",
  "",
  "Your text is kept exactly as you sent it. Anything addressed to me (\"remind me on Friday\") is cut from the note and kept in its history, and a reminder you ask for comes back at its time, in your own words.",
  "",
  "/done: sort what you sent now",
  "/ask what do I know about Ana?: your own words that answer it",
  "/reminders: what is coming up",
  "/tz Europe/Lisbon: your time zone, for reminders",
  "/web: a link to read your notes on the web",
  "/help: this message"
].join("\n")

/** The reply to `/web`: a link that signs the sender in once, within `minutes`. */
export const webLinkText = (url: string, minutes: number) =>
  `Your notes on the web: ${url}\nThe link signs you in once and works for ${minutes} minutes.`

/** The reply to `/done` when no message is waiting to be filed. */
export const nothingToFileText = "Nothing to file: send me something first."

/** The reply to `/web` sent in a group: a link posted there would sign in whoever opened it first. */
export const webInGroupText = "Send /web to me in a private chat: a sign-in link posted here would let anyone in this chat read your notes."

/** The reply to the first `/web` past the hourly cap on sign-in links (later ones in the hour get none). */
export const webLimitText = (perHour: number) =>
  `That is ${perHour} sign-in links this hour, the most I send: the newest still works until it expires. Ask again in an hour for another.`

/** The reply to `/web` when the server has no public address to link to. */
export const noWebText = "The web pages are not set up on this server yet (the operator sets VERBATIM_PUBLIC_URL)."

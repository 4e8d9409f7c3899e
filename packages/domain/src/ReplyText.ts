/**
 * What the bot says back, as pure functions of what was recorded: a reply never claims more or
 * fewer notes than the decisions hold, and every warning the sender can act on is said plainly.
 */
import type { Candidate, Owner, PlanWarning, QuestionReason } from "./Decision.js"

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

/**
 * "Added 2 notes: Alice, Bob. 1 question." — names in note order, each once; then one line per
 * warning worth saying.
 */
export const planSummary = (input: {
  readonly owners: ReadonlyArray<Owner>
  readonly questions: number
  readonly warnings: ReadonlyArray<PlanWarning>
}): string => {
  const names = [...new Set(input.owners.map(ownerLabel))]
  const notes = input.owners.length === 0
    ? "Added no notes."
    : `Added ${plural(input.owners.length, "note", "notes")}: ${names.join(", ")}.`
  const questions = input.questions === 0 ? "" : ` ${plural(input.questions, "question", "questions")}.`
  const warnings = input.warnings.filter((w) => spokenWarnings.has(w.code)).map((w) => `\n- ${w.message}`)
  return notes + questions + warnings.join("")
}

const questionLead: Record<QuestionReason, string> = {
  unclear: "Who is this about?",
  contested: "I could not tell who this is about.",
  unplanned: "I did not know where to file this.",
  failed: "I could not sort these messages yet; they are kept safe and will be filed when planning works again."
}

/** Longest excerpt of a message shown in a question; the note will hold the whole text. */
export const excerptLength = 280

const excerpt = (text: string): string => {
  const chars = Array.from(text)
  return chars.length <= excerptLength ? text : `${chars.slice(0, excerptLength).join("")}…`
}

/** The text of a question: why it is asked and the messages it concerns. */
export const questionText = (reason: QuestionReason, texts: ReadonlyArray<string>): string =>
  [questionLead[reason], ...texts.map((text) => `«${excerpt(text)}»`)].join("\n\n")

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
export const parseAnswerData = (data: string): { readonly questionId: string; readonly option: number } | null => {
  const match = /^a:(.+):(\d{1,3})$/.exec(data)
  return match === null ? null : { questionId: match[1]!, option: Number(match[2]) }
}

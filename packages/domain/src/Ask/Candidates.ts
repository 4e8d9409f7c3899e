/**
 * The messages an ask shows the model: each with a short reference valid for that request only
 * (`m1`, `m2` … in the order they were sent), the person its note is filed under, the day it was
 * sent in the asker's zone, and its current text. How readily each gives way when the request is
 * over budget is its relevance: messages about a person the question names, then those holding
 * more of the question's words, then the newest.
 */
import type { MessageId, NoteId, UserId } from "../Ids.js"
import { droppable, type PromptPart } from "../PromptPart.js"
import { localAt } from "../Reminders/LocalTime.js"

/** A message found for a question, as the read side gives it. */
export interface AskCandidate {
  readonly messageId: MessageId
  readonly user: UserId
  /** The name of the person its note is filed under, or null. */
  readonly person: string | null
  readonly noteId: NoteId | null
  /** Milliseconds since the epoch: when it was received. */
  readonly receivedAt: number
  readonly text: string
  /** Found through a person the question names. */
  readonly named: boolean
}

/** A candidate as sent: its reference and its line of the request. */
export interface SentCandidate extends AskCandidate {
  readonly ref: string
  readonly line: string
}

/** The day of an instant in `zone`, as `YYYY-MM-DD`. */
export const localDay = (epochMillis: number, zone: string): string => {
  const { day, month, year } = localAt(zone, epochMillis)
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`
}

/** Each candidate once, in the order they were sent, with its reference and JSON line. */
export const sentCandidates = (candidates: ReadonlyArray<AskCandidate>, zone: string): ReadonlyArray<SentCandidate> => {
  const unique = new Map<MessageId, AskCandidate>()
  for (const candidate of candidates) {
    const seen = unique.get(candidate.messageId)
    if (seen === undefined) unique.set(candidate.messageId, candidate)
    else if (candidate.named && !seen.named) unique.set(candidate.messageId, { ...seen, named: true })
  }
  return [...unique.values()]
    .sort((a, b) => a.receivedAt - b.receivedAt || (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0))
    .map((candidate, index) => {
      const ref = `m${index + 1}`
      const line = JSON.stringify({ ref, person: candidate.person, at: localDay(candidate.receivedAt, zone), text: candidate.text })
      return { ...candidate, ref, line }
    })
}

/** How many of `terms` a text holds (case folded, as the index finds them). */
const termsIn = (text: string, terms: ReadonlyArray<string>): number => {
  const folded = text.toLowerCase()
  return terms.reduce((n, term) => (folded.includes(term) ? n + 1 : n), 0)
}

/**
 * The candidates as parts of the request, each droppable whole: the least relevant first. Ranks
 * order by person named, then words held, then recency (a rank is a number; later is kept longer).
 */
export const candidateParts = (sent: ReadonlyArray<SentCandidate>, terms: ReadonlyArray<string>): ReadonlyArray<PromptPart> => {
  const newest = sent.reduce((max, c) => Math.max(max, c.receivedAt), 0)
  const oldest = sent.reduce((min, c) => Math.min(min, c.receivedAt), newest)
  const span = Math.max(1, newest - oldest)
  return sent.map((c) => droppable(c.ref, c.line, (c.named ? 1_000 : 0) + termsIn(c.text, terms) * 10 + (c.receivedAt - oldest) / span))
}

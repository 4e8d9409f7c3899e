/**
 * What the bot answers to a question: only the quotes, verbatim, each as `“…”` in the order the
 * messages were sent, with who it is filed under and the day; never a sentence of the model's own.
 */
import { maxQuestionLength } from "./Question.js"

/** A quote as the answer shows it. */
export interface ShownQuote {
  readonly text: string
  /** The person its note is filed under, or null when it is in no note about someone. */
  readonly person: string | null
  /** `YYYY-MM-DD` in the asker's zone; empty when the message's time is not known. */
  readonly day: string
  /** Where its note's audit shows these characters, when the pages have a public address. */
  readonly link: string | null
}

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

/** `2026-11-03` as `3 Nov 2026`. */
export const dayText = (day: string): string => {
  const [year, month, date] = day.split("-")
  return `${Number(date)} ${months[Number(month) - 1] ?? month} ${year}`
}

export const askText = {
  nothing: "I found nothing about that in your notes.",
  unavailable: "I can't look that up right now; try again in a minute.",
  noModel: "I can't look that up: no model is configured on this server yet. Your notes are safe.",
  empty: "Ask me something after /ask, for example: /ask what do I know about Ana?",
  tooLong: (length: number) =>
    `That question is ${length.toLocaleString("en")} characters long; ask it in at most ${maxQuestionLength.toLocaleString("en")}.`,
  /**
   * The quotes, at most `max` of them, each with its note's person and day (and link), then, when
   * more answered, how many and where to see them all.
   */
  answer: (quotes: ReadonlyArray<ShownQuote>, max: number, all: string | null): string => {
    const shown = quotes.slice(0, max).map((q) =>
      [`“${q.text}”`, `— ${q.person ?? "not about anyone"}${q.day === "" ? "" : `, ${dayText(q.day)}`}`, ...(q.link === null ? [] : [q.link])].join("\n")
    )
    const more = quotes.length - shown.length
    const rest = more === 0 ? [] : [`${more} more ${more === 1 ? "quote" : "quotes"}${all === null ? " on the web pages" : `: ${all}`}`]
    return [...shown, ...rest].join("\n\n")
  }
}

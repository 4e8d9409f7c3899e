/**
 * The reply to a question asked in a chat, made from its recorded outcome alone: the kept quotes
 * verbatim, each with who its note is filed under, the day, and a link to its note where those
 * characters are marked; or the plain words for nothing found and for an answer that could not
 * be made. Queued once (one reply id per question), after the outcome is recorded.
 */
import { askReplyId } from "@verbatim/domain/Ask/Events"
import { askText, type ShownQuote } from "@verbatim/domain/Ask/Text"
import type { AskId, NoteId } from "@verbatim/domain/Ids"
import { localDay } from "@verbatim/domain/Ask/Candidates"
import { AskBook, type AskRow } from "@verbatim/projections/AskBook"
import { Effect, Option } from "effect"
import * as Replies from "../Replies.js"
import { quoteKey } from "@verbatim/domain/Ask/Decide"
import { TimeZones } from "../TimeZones.js"
import { markedLink, WebLinks } from "../WebLinks.js"

/** An answered question's quote as shown, with the note it is in. */
type Shown = ShownQuote & { readonly noteId: NoteId | null }

/**
 * Each question's quotes as shown: in the order answered (messages in send order), each with its
 * person, day and link. One read finds every quoted message of all the questions, and each
 * asker's time zone is read once, so a list of questions costs the same few reads as one.
 */
const shownQuotes = Effect.fn("Ask.shownQuotes")(function*(rows: ReadonlyArray<AskRow>) {
  const book = yield* AskBook
  const zones = yield* TimeZones
  const base = (yield* WebLinks).publicUrl
  const answered = rows.map((row) => (row.status === "answered" ? row.quotes ?? [] : []))
  const where = new Map((yield* book.quoted([...new Set(answered.flat().map((q) => q.messageId))])).map((m) => [m.messageId, m]))
  const zoneOf = new Map(yield* Effect.forEach(new Set(rows.map((row) => row.user)), (user) => Effect.map(zones.zoneOf(user), (zone) => [user, zone] as const)))
  return answered.map((quotes, i) =>
    quotes.map((quote): Shown => {
      const found = where.get(quote.messageId)
      const noteId = found?.noteId ?? null
      return {
        text: quote.text,
        person: found?.person ?? null,
        day: found === undefined ? "" : localDay(Date.parse(found.receivedAt), zoneOf.get(rows[i]!.user)!),
        link: Option.isSome(base) && noteId !== null ? markedLink(base.value, noteId, quote) : null,
        noteId
      }
    })
  )
})

/** What the bot says to a finished question whose quotes are shown as `shown`. */
const answerText = (row: AskRow, shown: ReadonlyArray<Shown>, maxQuotes: number, base: Option.Option<string>): string => {
  if (row.status === "failed") return row.failure?.startsWith("no-model") === true ? askText.noModel : askText.unavailable
  if (shown.length === 0) return askText.nothing
  return askText.answer(shown, maxQuotes, Option.isSome(base) ? `${base.value}/asks/${encodeURIComponent(row.askId)}` : null)
}

/** Questions as the API and the pages show them: their quotes with their people and days, and the answers in words. */
export const askedViews = Effect.fn("Ask.views")(function*(rows: ReadonlyArray<AskRow>) {
  const base = (yield* WebLinks).publicUrl
  const shown = yield* shownQuotes(rows)
  return rows.map((row, r) => {
    const confirmed = new Set(row.confirmed ?? [])
    return {
      id: row.askId,
      user: row.user,
      question: row.question,
      postedAt: row.postedAt,
      status: row.status,
      quotes: (row.quotes ?? []).map((quote, i) => ({
        messageId: quote.messageId,
        noteId: shown[r]![i]?.noteId ?? null,
        person: shown[r]![i]?.person ?? null,
        day: shown[r]![i]?.day ?? "",
        start: quote.start,
        end: quote.end,
        text: quote.text,
        confirmed: row.status === "answered" && confirmed.has(quoteKey(quote))
      })),
      dropped: row.dropped ?? 0,
      failure: row.failure,
      text: row.status === "posed" ? null : answerText(row, shown[r]!, Number.POSITIVE_INFINITY, base)
    }
  })
})

/** A question as the API and the pages show it. */
export const askedView = (row: AskRow) => Effect.map(askedViews([row]), (views) => views[0]!)

/** Queue the reply to a finished question asked in a chat (once: later calls do nothing). */
export const replyTo = Effect.fn("Ask.replyTo")(function*(askId: AskId, maxQuotes: number) {
  const found = yield* Effect.flatMap(AskBook, (book) => book.get(askId))
  if (Option.isNone(found)) return
  const row = found.value
  if (row.via !== "chat" || row.status === "posed" || row.provider === null || row.chat === null) return
  yield* Replies.queue({
    replyId: askReplyId(askId),
    user: row.user,
    provider: row.provider,
    chat: row.chat,
    text: answerText(row, (yield* shownQuotes([row]))[0]!, maxQuotes, (yield* WebLinks).publicUrl),
    buttons: [],
    questionId: null
  })
})

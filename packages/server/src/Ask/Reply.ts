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
import { confirmedQuotes } from "./Confirm.js"
import { TimeZones } from "../TimeZones.js"
import { markedLink, WebLinks } from "../WebLinks.js"

/** An answered question's quotes as shown: in the order answered (messages in send order), each with its person, day and link. */
export const shownQuotes = Effect.fn("Ask.shownQuotes")(function*(row: AskRow) {
  const quotes = row.quotes ?? []
  const book = yield* AskBook
  const where = new Map((yield* book.quoted(quotes.map((q) => q.messageId))).map((m) => [m.messageId, m]))
  const zone = yield* Effect.flatMap(TimeZones, (zones) => zones.zoneOf(row.user))
  const base = (yield* WebLinks).publicUrl
  return quotes.map((quote): ShownQuote & { readonly noteId: NoteId | null } => {
    const found = where.get(quote.messageId)
    const noteId = found?.noteId ?? null
    return {
      text: quote.text,
      person: found?.person ?? null,
      day: found === undefined ? "" : localDay(Date.parse(found.receivedAt), zone),
      link: Option.isSome(base) && noteId !== null ? markedLink(base.value, noteId, quote) : null,
      noteId
    }
  })
})

/** What the bot says to a finished question. */
export const replyText = Effect.fn("Ask.replyText")(function*(row: AskRow, maxQuotes: number) {
  if (row.status === "failed") return row.failure?.startsWith("no-model") === true ? askText.noModel : askText.unavailable
  const shown = yield* shownQuotes(row)
  if (shown.length === 0) return askText.nothing
  const base = (yield* WebLinks).publicUrl
  return askText.answer(shown, maxQuotes, Option.isSome(base) ? `${base.value}/asks/${encodeURIComponent(row.askId)}` : null)
})

/** A question as the API and the pages show it: its quotes with their people and days, and the answer in words. */
export const askedView = Effect.fn("Ask.view")(function*(row: AskRow) {
  const shown = row.status === "answered" ? yield* shownQuotes(row) : []
  const confirmed = row.status === "answered" ? yield* confirmedQuotes(row.askId) : new Set<string>()
  const quotes = (row.quotes ?? []).map((quote, i) => ({
    messageId: quote.messageId,
    noteId: shown[i]?.noteId ?? null,
    person: shown[i]?.person ?? null,
    day: shown[i]?.day ?? "",
    start: quote.start,
    end: quote.end,
    text: quote.text,
    confirmed: confirmed.has(quoteKey(quote))
  }))
  return {
    id: row.askId,
    user: row.user,
    question: row.question,
    postedAt: row.postedAt,
    status: row.status,
    quotes,
    dropped: row.dropped ?? 0,
    failure: row.failure,
    text: row.status === "posed" ? null : yield* replyText(row, Number.POSITIVE_INFINITY)
  }
})

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
    text: yield* replyText(row, maxQuotes),
    buttons: [],
    questionId: null
  })
})

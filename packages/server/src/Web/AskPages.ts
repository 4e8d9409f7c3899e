/**
 * The ask pages: a box for a question with the user's past questions under it, and one question
 * with its answer, which is only the user's own words: each quote as it stands in its message,
 * who it is filed under, the day, and a link to its note with those characters marked.
 */
import type { Asked } from "@verbatim/domain/AskApi"
import { askText, dayText } from "@verbatim/domain/Ask/Text"
import { maxQuestionLength } from "@verbatim/domain/Ask/Question"
import { DateTime } from "effect"
import { type Html, html } from "./Html.js"
import { timeAt } from "./Time.js"

const statusText = (asked: Asked): string =>
  asked.status === "posed"
    ? "looking it up…"
    : asked.status === "failed"
    ? "could not be answered"
    : asked.quotes.length === 0
    ? "nothing found"
    : `${asked.quotes.length} ${asked.quotes.length === 1 ? "quote" : "quotes"}`

/** The box, a notice of what the last question did, and the questions asked before, newest first. */
export const askPage = (asks: ReadonlyArray<Asked>, csrf: string, notice: string, zone: string): Html =>
  html`<h1>Ask your notes</h1>
<p class="muted">The answer is only your own words, quoted exactly from your messages.</p>
${notice === "" ? null : html`<p role="status" class="notice">${notice}</p>`}
<form method="post" action="/ask" class="ask">
<input type="hidden" name="csrf" value="${csrf}">
<label for="question">Question</label>
<textarea id="question" name="question" rows="2" maxlength="${maxQuestionLength}" required placeholder="What do I know about Ana?"></textarea>
<button type="submit">Ask</button>
</form>
<h2>Asked before</h2>
${
    asks.length === 0
      ? html`<p class="muted">No questions yet.</p>`
      : html`<ul class="list">${asks.map((a) => html`<li data-ask><a href="/asks/${encodeURIComponent(a.id)}">${a.question}</a> <span class="muted">${timeAt(DateTime.unsafeMake(a.postedAt), zone)} · ${statusText(a)}</span></li>`)}</ul>`
  }`

const markOf = (quote: Asked["quotes"][number]) => encodeURIComponent(`${quote.messageId}:${quote.start}-${quote.end}`)

/** A quote's confirmation: a button until the asker says it answers the question, then a mark that it does. */
const confirmation = (asked: Asked, q: Asked["quotes"][number], csrf: string): Html =>
  q.confirmed
    ? html`<p class="muted" data-confirmed>You confirmed this answers it.</p>`
    : html`<form method="post" action="/asks/${encodeURIComponent(asked.id)}/confirm" class="actions"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="messageId" value="${q.messageId}"><input type="hidden" name="start" value="${q.start}"><input type="hidden" name="end" value="${q.end}"><button type="submit">This answers it</button></form>`

/** One question and its answer; `notice` what the last confirmation did; its time read in `zone`. */
export const askedPage = (asked: Asked, csrf: string, notice: string, zone: string): Html =>
  html`<h1>${asked.question}</h1>
${notice === "" ? null : html`<p role="status" class="notice">${notice}</p>`}
<p class="muted">Asked ${timeAt(DateTime.unsafeMake(asked.postedAt), zone)} · ${statusText(asked)}${
    asked.dropped === 0 ? null : html` · ${asked.dropped} ${asked.dropped === 1 ? "quote" : "quotes"} the model gave that ${asked.dropped === 1 ? "is" : "are"} not your exact words, left out`
  }</p>
${
    asked.status === "posed"
      ? html`<p role="status" class="notice">Still looking it up. <a href="/asks/${encodeURIComponent(asked.id)}">Look again</a> in a moment.</p>`
      : asked.status === "failed"
      ? html`<p role="status" class="notice">${asked.failure?.startsWith("no-model") === true ? askText.noModel : askText.unavailable}</p>`
      : asked.quotes.length === 0
      ? html`<p>${askText.nothing}</p>`
      : html`<ol class="list answer">${
        asked.quotes.map((q) =>
          html`<li data-quote><blockquote>&ldquo;${q.text}&rdquo;</blockquote><p class="muted">&mdash; ${q.person ?? "not about anyone"}, ${q.day === "" ? "" : dayText(q.day)}${
            q.noteId === null ? null : html` · <a href="/notes/${q.noteId}?mark=${markOf(q)}">where it was said</a>`
          }</p>${confirmation(asked, q, csrf)}</li>`
        )
      }</ol>`
  }
<p><a href="/ask">Ask another question</a></p>`

/** The read pages: people, own notes, open questions, search, and sign-in. */
import type { Person, Question } from "@verbatim/domain/ApiResponses"
import { foldedRanges } from "@verbatim/domain/Fold"
import type { MessageId } from "@verbatim/domain/Ids"
import type { SearchHit } from "@verbatim/projections/Notebook"
import { questionLeadOf } from "@verbatim/domain/ReplyText"
import { type Html, html } from "./Html.js"
import { type Forwards, type NotesShown, pagedNoteLists } from "./NoteLists.js"

/** A GET form with one search field `q`. */
const searchForm = (action: string, label: string, query: string, placeholder: string) =>
  html`<form class="search" method="get" action="${action}" role="search">
<label for="q" class="muted">${label}</label>
<input id="q" name="q" type="search" value="${query}" placeholder="${placeholder}">
<button type="submit">Search</button>
</form>`

/** What the last change did, when it is told. */
export const noticeOf = (notice: string): Html | null => (notice === "" ? null : html`<p role="status" class="notice">${notice}</p>`)

/** Everyone with notes, a name filter on top; `whose`: each with the user whose person it is (the operator sees everyone's). */
export const peoplePage = (people: ReadonlyArray<Person>, query: string, whose: boolean, others: ReadonlyArray<Person> = [], notice = ""): Html =>
  html`<h1>People</h1>
${noticeOf(notice)}
${searchForm("/", "Find", query, "A name")}
${
    people.length === 0
      ? html`<p class="muted">${query === "" ? "No notes about anyone yet. Forward messages to the bot, and they appear here once filed." : `Nobody named like “${query}”.`}</p>`
      : html`<ul class="list">${
        people.map((p) =>
          html`<li><a href="/people/${p.id}">${p.name}</a> <span class="count">${p.noteCount} ${p.noteCount === 1 ? "note" : "notes"}</span>${
            whose ? html` <span class="muted" data-user>${p.user}</span>` : null
          }</li>`
        )
      }</ul>`
  }
${othersSummary(others)}`

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** Other users' people the operator does not read, as counts per user: no names, no notes. */
const othersSummary = (others: ReadonlyArray<Person>): Html | null => {
  if (others.length === 0) return null
  const users = new Map<string, { people: number; notes: number }>()
  for (const p of others) {
    const counts = users.get(p.user) ?? { people: 0, notes: 0 }
    users.set(p.user, { people: counts.people + 1, notes: counts.notes + p.noteCount })
  }
  return html`<h2>Other users</h2>
<p class="muted" data-withheld>${others[0]?.withheld ?? ""}</p>
<ul class="list" data-others>${
    [...users].map(([user, counts]) =>
      html`<li><span data-user>${user}</span> <span class="count">${counted(counts.people, "person", "people")}, ${counted(counts.notes, "note", "notes")}</span></li>`
    )
  }</ul>`
}

/** The sender's own notes (about no one), a page of them newest first, then the discarded ones; `withheld`: why other users' are not among them. */
export const ownPage = (notes: NotesShown, zone: string, withheld: string | null = null, notice = "", forwards: Forwards = new Map()): Html =>
  html`<h1>Own notes</h1>
${noticeOf(notice)}
<p class="muted">Notes about no one in particular: your own thinking.</p>
${withheld === null ? null : html`<p class="muted" data-withheld>Only yours (web:operator) are listed. ${withheld}</p>`}
${notes.live !== null && notes.live.items.length === 0 && !notes.older ? html`<p class="muted">None yet.</p>` : null}
${pagedNoteLists(notes, zone, forwards)}`

const reasons: Record<Question["reason"], string> = {
  unclear: "Who is this about?",
  contested: "More than one person could be meant.",
  unplanned: "The plan left these out: where do they go?",
  failed: "These could not be sorted yet; they are kept safe.",
  corrected: "After an update, these are filed apart from where they were moved: where do they belong?"
}

/** Why a question is asked; a correction an update no longer fits names both places, as the bot does. */
const reasonOf = (q: Question): string => q.reason === "corrected" ? questionLeadOf(q.reason, q.candidates) : reasons[q.reason]

const answerButton = (q: Question, csrf: string, option: string, label: string) =>
  html`<form method="post" action="/questions/${q.id}/answer"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="option" value="${option}"><button type="submit">${label}</button></form>`

/** A button per candidate and, as the bot offers, one to keep the messages as the sender's own notes. */
const answerButtons = (q: Question, csrf: string): Html =>
  html`<div class="answers">${
    q.candidates.map((c, i) => answerButton(q, csrf, String(i), c._tag === "Person" ? c.name : "Keep as my own notes"))
  }${q.candidates.some((c) => c._tag === "Unattached") ? null : answerButton(q, csrf, "own", "Keep as my own notes")}</div>`

/** Another user's question the operator does not read: why it was asked and where, without its messages or choices. */
const withheldQuestion = (q: Question): Html =>
  html`<li data-withheld><p><strong>${reasons[q.reason]}</strong> <span class="muted" data-user>${q.user}</span> <a href="/sessions/${q.sessionId}" class="muted">session</a></p><p class="muted">${
    counted(q.sources.length, "message", "messages")
  }, not shown: ${q.withheld ?? ""}</p></li>`

/** The open questions with their messages and an answer button per choice; `notice` says what the last answer did. */
export const questionsPage = (questions: ReadonlyArray<Question>, csrf: string, notice: string): Html =>
  html`<h1>Questions</h1>
${notice === "" ? null : html`<p role="status" class="notice">${notice}</p>`}
${
    questions.length === 0
      ? html`<p class="muted">No open questions.</p>`
      : html`<ul class="list">${
        questions.map((q) =>
          q.withheld !== undefined ? withheldQuestion(q) : html`<li><p><strong>${reasonOf(q)}</strong> <a href="/sessions/${q.sessionId}" class="muted">session</a></p>${
            q.sources.map((s) => html`<div class="body">${s.text}</div>`)
          }${q.candidates.length === 0 ? null : answerButtons(q, csrf)}</li>`
        )
      }</ul>`
  }`

const refusals = {
  token: "That token is not this server's.",
  link: "That sign-in link is used, expired or not this server's: send /web to the bot for a new one."
}

/** The sign-in form; `refused` says why the last attempt failed. */
export const signInPage = (next: string, refused: keyof typeof refusals | null): Html =>
  html`<h1>Sign in</h1>
<form class="signin" method="post" action="/signin">
<input type="hidden" name="next" value="${next}">
${refused === null ? null : html`<p id="token-error" class="error">${refusals[refused]}</p>`}
<label for="token">API token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required${refused === "token" ? html` aria-describedby="token-error" aria-invalid="true"` : null}>
<button type="submit">Sign in</button>
</form>
<p class="muted">Send <code>/web</code> to the bot for a link that signs you in to your own notes. The operator signs in with the API token, printed when the server first starts and kept in the data directory's <code>api-token</code> file.</p>`

/** A sign-in link opened: one button uses it (a GET never does, so previews and scanners leave it whole). */
export const linkPage = (token: string): Html =>
  html`<h1>Sign in</h1>
<form class="signin" method="post" action="/signin/link">
<input type="hidden" name="token" value="${token}">
<button type="submit">Sign in to your notes</button>
</form>
<p class="muted">This link works once, for a few minutes after the bot sent it.</p>`

/** A sign-in link whose signature or time does not hold: what happened, and what to do. */
export const brokenLinkPage: Html = html`<h1>This link has expired or was used</h1>
<p>Send /web to the bot for a new one.</p>
<p><a href="/signin">Sign in another way</a></p>`

/** Any address the site has no page for. */
export const missingPage: Html = html`<h1>Not found</h1>
<p>There is no page at this address.</p>
<p><a href="/">Go to your notes</a></p>`

/** `text` with the words a search found in it marked, case and accents aside. */
const marked = (text: string, query: string): Html => {
  const pieces: Array<Html> = []
  let at = 0
  for (const [start, end] of foldedRanges(text, query)) {
    pieces.push(html`${text.slice(at, start)}<mark>${text.slice(start, end)}</mark>`)
    at = end
  }
  return html`${pieces}${text.slice(at)}`
}

/** Where the page of matches older than message `before` is. */
const olderMatches = (query: string, before: MessageId) => `/search?q=${encodeURIComponent(query)}&before=${encodeURIComponent(before)}`

/**
 * A page of messages matching a search, each linked to its note (or its session when it is in
 * none), and a link to the older ones when there are more; `after`: whether this page follows
 * another; `withheld`: why only the operator's own are searched.
 */
export const searchPage = (
  query: string,
  page: { readonly hits: ReadonlyArray<SearchHit>; readonly next: MessageId | null; readonly after: boolean },
  withheld: string | null = null
): Html =>
  html`<h1>Search</h1>
${searchForm("/search", "Words", query, "Words from a note or a message")}
${withheld === null ? null : html`<p class="muted" data-withheld>Only your own messages (web:operator) are searched. ${withheld}</p>`}
${
    query.trim() === ""
      ? null
      : page.hits.length === 0
      ? html`<p class="muted">${page.after ? "No older message holds every one of those words." : "Nothing holds every one of those words."}</p>`
      : html`<ul class="list">${
        page.hits.map((h) =>
          html`<li data-hit>${h.forwardedFrom === null ? null : html`<p class="muted" data-forwarded>Forwarded from ${h.forwardedFrom}</p>`}<div class="body">${
            marked(h.text, query)
          }</div><p class="muted">${
            h.noteId === null
              ? html`<a href="/sessions/${h.sessionId}">in no note yet: its session</a>`
              : html`<a href="/notes/${h.noteId}">in a note ${h.person === null ? "of your own" : `about ${h.person}`}</a>${
                h.personId === null ? null : html` · <a href="/people/${h.personId}">all about ${h.person}</a>`
              }`
          }</p></li>`
        )
      }</ul>${page.next === null ? null : html`<p><a href="${olderMatches(query, page.next)}" data-older>Older matches</a></p>`}`
  }`

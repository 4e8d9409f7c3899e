/** The compose page: a box to type or paste messages into, the open session's messages, and the bot's replies. */
import type { ConversationReply, SessionMessage } from "@verbatim/projections/Notebook"
import { type Html, html } from "./Html.js"

/** What the page shows. */
export interface ComposeView {
  readonly csrf: string
  /** The id the next message is sent under: a form sent twice records once. */
  readonly formId: string
  /** The open session's messages, in order (none when no session is open). */
  readonly open: ReadonlyArray<SessionMessage>
  readonly replies: ReadonlyArray<ConversationReply>
  readonly idleSeconds: number
  readonly notice: string
  /** Why the last message was not taken, with what was typed kept in the box. */
  readonly refused: { readonly reason: string; readonly text: string; readonly forwardedFrom: string } | null
}

const hidden = (view: ComposeView, id: string) =>
  html`<input type="hidden" name="csrf" value="${view.csrf}"><input type="hidden" name="id" value="${id}">`

const openSession = (view: ComposeView): Html | null =>
  view.open.length === 0 ? null : html`<h2>In this session</h2>
<ol class="list" data-open>${
    view.open.map((m) =>
      html`<li><span class="tag">seq ${m.seq}</span>${
        m.forwardedFrom === null ? null : html` <span class="muted" data-forwarded>Forwarded from ${m.forwardedFrom}</span>`
      }<div class="body">${m.text}</div></li>`
    )
  }</ol>
<form method="post" action="/compose/file">${hidden(view, `${view.formId}-file`)}<button type="submit">File ${view.open.length} ${
    view.open.length === 1 ? "message" : "messages"
  } now</button></form>`

/** The bot's replies, newest first: the part of the page the compose script replaces as replies come. */
export const repliesFragment = (replies: ReadonlyArray<ConversationReply>): Html | null =>
  replies.length === 0 ? null : html`<h2>From the bot</h2>
<ul class="list" data-replies>${
    replies.map((r) =>
      html`<li><div class="body">${r.text}</div>${r.questionId === null ? null : html`<p><a href="/questions">Answer on the questions page</a></p>`}</li>`
    )
  }</ul>`

/** The newest reply's id, as the page and the long poll compare it ("" before the first). */
export const newestReply = (replies: ReadonlyArray<ConversationReply>): string => replies[0]?.replyId ?? ""

/** Where the replies show: updated in place by `/assets/compose.js` when scripts run, by a reload when not. */
const replies = (view: ComposeView): Html =>
  html`<div aria-live="polite" data-live-replies="${newestReply(view.replies)}">${repliesFragment(view.replies)}</div>`

/** A quiet spell in words: seconds under two minutes, whole minutes from there. */
const quiet = (seconds: number): string =>
  seconds < 120 ? `${seconds} second${seconds === 1 ? "" : "s"}` : `${Math.round(seconds / 60)} minutes`

/**
 * The "Paste a chat" box: what is pasted is shown split into messages before anything is captured.
 * The box's text starts after a line break, which the HTML parser drops, so a paste's own first one stays.
 */
export const pasteForm = (csrf: string, paste: string, heading = "Paste a chat"): Html =>
  html`<h2 id="paste-heading">${heading}</h2>
<form class="compose" method="post" action="/compose/paste" data-paste aria-labelledby="paste-heading">
<input type="hidden" name="csrf" value="${csrf}">
<label for="paste">Pasted messages</label>
<textarea id="paste" name="paste" rows="6" required aria-describedby="paste-help">
${paste}</textarea>
<p id="paste-help" class="muted">Copy messages from WhatsApp, or lines written as <code>Name: text</code>, and paste them here. Each becomes its own message, forwarded from whoever wrote it; a line with no name belongs to the message before it. You see them before anything is captured.</p>
<div class="answers"><button type="submit">Preview the messages</button></div>
</form>`

export const composePage = (view: ComposeView): Html =>
  html`<h1>Capture</h1>
${view.notice === "" ? null : html`<p role="status" class="notice">${view.notice}</p>`}
<form class="compose" method="post" action="/compose">
${hidden(view, view.formId)}
${view.refused === null ? null : html`<p id="compose-error" class="error">${view.refused.reason}</p>`}
<label for="text">Message</label>
<textarea id="text" name="text" rows="6" required aria-describedby="compose-help${view.refused === null ? "" : " compose-error"}"${
    view.refused === null ? null : html` aria-invalid="true"`
  }>${view.refused?.text ?? ""}</textarea>
<p id="compose-help" class="muted">Each message is kept exactly as you type or paste it. Send one or several; they are filed together when you file them, or after ${quiet(view.idleSeconds)} of quiet.</p>
<label for="forwardedFrom">Forwarded from <span class="muted">(optional)</span></label>
<input id="forwardedFrom" name="forwardedFrom" value="${view.refused?.forwardedFrom ?? ""}" autocomplete="off">
<div class="answers"><button type="submit" name="then" value="send">Send</button><button type="submit" name="then" value="file">Send and file now</button></div>
</form>
${pasteForm(view.csrf, "")}
${openSession(view)}
${replies(view)}`

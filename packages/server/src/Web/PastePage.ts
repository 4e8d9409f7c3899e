/** The preview of a pasted chat: each message with whom it is forwarded from, and one button that captures them all. */
import type { PastedMessage } from "@verbatim/domain/Inbound/PastedChat"
import { type Html, html } from "./Html.js"
import { pasteForm } from "./ComposePage.js"

/** What the preview shows. */
export interface PasteView {
  readonly csrf: string
  /** The id the capture is sent under: message n is captured as `<id>.<n>`, so a form sent twice records once. */
  readonly formId: string
  /** The paste as it arrived: sent again with the capture, read again into the same messages. */
  readonly paste: string
  readonly messages: ReadonlyArray<PastedMessage>
  /** Why the paste cannot be captured as it is; null when it can. */
  readonly problem: string | null
}

const count = (n: number): string => `${n} ${n === 1 ? "message" : "messages"}`

const item = (message: PastedMessage, index: number): Html =>
  html`<li><span class="tag">${index + 1}</span>${
    message.author === null
      ? html` <span class="muted" data-author="">No name: not a forward</span>`
      : html` <span data-author="${message.author}">Forwarded from <strong>${message.author}</strong></span>`
  }<div class="body" data-text>${message.text}</div></li>`

const captureForm = (view: PasteView): Html =>
  html`<form method="post" action="/compose/paste/capture" data-capture>
<input type="hidden" name="csrf" value="${view.csrf}"><input type="hidden" name="id" value="${view.formId}"><input type="hidden" name="paste" value="${view.paste}">
<div class="answers"><button type="submit">Capture ${count(view.messages.length)}</button><a href="/compose">Cancel</a></div>
</form>`

export const pastePage = (view: PasteView): Html =>
  html`<h1>Paste a chat</h1>
${view.problem === null ? null : html`<p id="paste-error" class="error" role="alert">${view.problem}</p>`}
${
    view.messages.length === 0 ? null : html`<h2>${count(view.messages.length)}, as they will be captured</h2>
<ol class="list" data-pasted>${view.messages.map(item)}</ol>`
  }
${view.problem === null ? captureForm(view) : null}
${pasteForm(view.csrf, view.paste, "Change the paste")}`

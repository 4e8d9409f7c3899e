/**
 * A session's page: every message with its one disposition, colour-coded, and the way to forget
 * it, then the plans that filed it. Another user's session, for an operator who does not read their text
 * (`VERBATIM_OPERATOR_READS=none`), is its accounting alone: the dispositions and plans, without
 * the messages' text or whom their notes are about.
 */
import { type MessageId, type NoteId, SessionId } from "@verbatim/domain/Ids"
import { notReadMessage } from "@verbatim/domain/OperatorReads/Mode"
import { Notebook, type SessionAccountingView, type SessionMessage, type SessionPlan } from "@verbatim/projections/Notebook"
import { DateTime, Effect, Option } from "effect"
import { OperatorReads } from "../OperatorReads.js"
import { type Html, html } from "./Html.js"
import { forgetMessageLink } from "./ForgetPages.js"
import { noticeOf } from "./Pages.js"
import { param, query } from "./Routing.js"
import * as SignIn from "./SignIn.js"
import { dayOf } from "./Time.js"
import { signedIn } from "./Viewer.js"

/** What a session page shows beside its accounting. */
export interface SessionDetails {
  /** Each message as it reads now (its text, who it was forwarded from), by message id. */
  readonly messages: ReadonlyMap<MessageId, SessionMessage>
  /** Whom each note the session's messages are in is about, by note id. */
  readonly owners: ReadonlyMap<NoteId, string>
  readonly plans: ReadonlyArray<SessionPlan>
  /** Why the messages' text is left out, when it is. */
  readonly withheld: string | null
  /** What the last change did (a message forgotten). */
  readonly notice: string
  /** The viewer's time zone, that dates are read in. */
  readonly zone: string
}

/** A note, and whom it is about when that is shown. */
const aNote = (owner: string | undefined) => (owner === undefined ? "a note" : `a note about ${owner}`)

const dispositionLabel = (d: SessionAccountingView["messages"][number]["disposition"], { owners, zone }: SessionDetails): Html => {
  switch (d._tag) {
    case "InNote":
      return html`in <a href="/notes/${d.noteId}">${aNote(owners.get(d.noteId))}</a>`
    case "Discarded":
      return html`discarded by the user, in <a href="/notes/${d.noteId}">${aNote(owners.get(d.noteId))}</a> that can be restored`
    case "InQuestion":
      return html`in <a href="/questions">a question</a>`
    case "Erased":
      return html`erased on ${dayOf(DateTime.unsafeMake(d.erasedAt), zone)} at your request`
    case "Instruction":
      return html`an instruction to the bot`
    case "AwaitingPlan":
      return html`awaiting a plan`
    case "AwaitingTranscription":
      return html`awaiting transcription`
  }
}

/** A message's words, led by whom they were forwarded from: a forward is not the sender's own news. */
const messageText = (message: SessionMessage | undefined): Html =>
  html`${message?.forwardedFrom == null ? null : html`<p class="muted" data-forwarded>Forwarded from ${message.forwardedFrom}</p>`}<div class="body">${message?.text ?? ""}</div>`

/** The plans that filed a session, a superseded one marked with the plan that replaced it. */
const planList = (plans: ReadonlyArray<SessionPlan>): Html =>
  plans.length === 0
    ? html`<p class="muted">Not planned yet.</p>`
    : html`<ul class="list" data-plans>${
      plans.map((p) =>
        html`<li>${p.planId}: messages ${p.fromSeq}&ndash;${p.toSeq}, prompt ${p.promptVersion}, ${p.model}, ${p.inputTokens} in / ${p.outputTokens} out${
          p.supersededBy === null ? null : html` <span class="muted">(replaced by ${p.supersededBy})</span>`
        }</li>`
      )
    }</ul>`

/** A session's messages, each with its one disposition, then the plans that filed them. */
export const sessionPage = (accounting: SessionAccountingView, details: SessionDetails): Html =>
  html`<h1>Session</h1>
<p class="muted">${accounting.sessionId} · ${accounting.status}</p>
${noticeOf(details.notice)}
${details.withheld === null ? null : html`<p class="notice" data-withheld>${details.withheld}</p>`}
<ol class="list">${
    accounting.messages.map((m) =>
      html`<li><span class="tag">seq ${m.seq}</span> <span data-disposition="${m.disposition._tag}">${dispositionLabel(m.disposition, details)}</span>${
        m.disposition._tag === "Erased" ? null : forgetMessageLink(m.messageId)
      }${
        details.withheld === null && m.disposition._tag !== "Erased" ? messageText(details.messages.get(m.messageId)) : null
      }</li>`
    )
  }</ol>
<h2>Plans</h2>
${planList(details.plans)}`

/** `GET /sessions/:id`: the session's accounting, with its text when the viewer reads it (recorded under `audited`). */
export const sessionRoute = signedIn("Session", "none", ({ subject, zone }) =>
  Effect.gen(function*() {
    const read = yield* Notebook
    const notice = yield* query("notice")
    const id = SessionId.make(yield* param("id"))
    const accounting = yield* read.sessionAccounting(id)
    if (Option.isNone(accounting) || !SignIn.maySee(subject, accounting.value.user)) return Option.none()
    const plans = yield* read.sessionPlans(id)
    const shown = yield* Effect.flatMap(OperatorReads, (reads) => reads.shown(subject, [{ user: accounting.value.user, kind: "session", ids: [id] }]))
    if (!shown(accounting.value.user)) {
      return Option.some(sessionPage(accounting.value, { messages: new Map(), owners: new Map(), plans, withheld: notReadMessage, notice, zone }))
    }
    const messages = yield* read.sessionMessages(id)
    const noteIds = new Set(accounting.value.messages.flatMap((m) => (m.disposition._tag === "InNote" || m.disposition._tag === "Discarded" ? [m.disposition.noteId] : [])))
    const notes = yield* Effect.forEach([...noteIds], (noteId) => read.note(noteId))
    const owners = new Map(notes.flatMap(Option.toArray).map((n) => [n.id, n.owner._tag === "Person" ? n.owner.name : "your own thoughts"]))
    const byId = new Map(messages.map((m) => [m.id, m]))
    return Option.some(sessionPage(accounting.value, { messages: byId, owners, plans, withheld: null, notice, zone }))
  }), "session")

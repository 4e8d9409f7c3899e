/**
 * The reminders page: each reminder in the words that asked for it, when it is due on its own
 * clock, a link to those words marked in their note, and for one still to come (or delivered and
 * not yet done) the same choices as the chat's buttons. Pressing one is the command a button is.
 */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { type UserId } from "@verbatim/domain/Ids"
import { type ReminderAction } from "@verbatim/domain/Reminders/Text"
import type { ReminderRow } from "@verbatim/projections/ReminderBook"
import { Effect, Option, Schema } from "effect"
import { press } from "../Reminders/Actions.js"
import { ReminderBook } from "@verbatim/projections/ReminderBook"
import { type Html, html } from "./Html.js"
import * as SignIn from "./SignIn.js"

const statusText: Record<ReminderRow["status"], string> = {
  scheduled: "coming up",
  delivered: "sent, not marked done",
  done: "done",
  cancelled: "cancelled"
}

const actions: ReadonlyArray<readonly [ReminderAction, string]> = [["done", "Done"], ["hour", "Snooze 1 hour"], ["morning", "Tomorrow 09:00"], ["cancel", "Cancel"]]

const row = (r: ReminderRow, csrf: string): Html =>
  html`<li data-reminder><blockquote>&ldquo;${r.quote}&rdquo;</blockquote><p class="muted">due ${r.dueLocal.replace("T", " ")} (${r.zone}) · ${statusText[r.status]}${
    r.late ? " late" : ""
  }${
    r.noteId === null ? null : html` · <a href="/notes/${r.noteId}?mark=${encodeURIComponent(`${r.messageId}:${r.start}-${r.end}`)}">where you asked</a>`
  }</p>${
    r.status === "done" || r.status === "cancelled" ? null : html`<form method="post" action="/reminders/${r.reminderId}" class="actions"><input type="hidden" name="csrf" value="${csrf}">${
      actions.map(([action, label]) => html`<button type="submit" name="action" value="${action}">${label}</button>`)
    }</form>`
  }</li>`

/** The user's reminders: those to come or awaiting done first, then the finished ones. */
export const remindersPage = (open: ReadonlyArray<ReminderRow>, finished: ReadonlyArray<ReminderRow>, csrf: string, notice: string): Html =>
  html`<h1>Reminders</h1>
<p class="muted">Each in the words you asked for it with. Ask for one in a message ("remind me on Friday to call Ana"); /tz sets your time zone.</p>
${notice === "" ? null : html`<p role="status" class="notice">${notice}</p>`}
${open.length === 0 ? html`<p class="muted">Nothing coming up.</p>` : html`<ul class="list">${open.map((r) => row(r, csrf))}</ul>`}
<h2>Done and cancelled</h2>
${finished.length === 0 ? html`<p class="muted">None yet.</p>` : html`<ul class="list">${finished.map((r) => row(r, csrf))}</ul>`}`

/** Whose reminders a viewer sees: their own; the operator, the operator's. */
export const reminderUser = (subject: SignIn.Subject, operator: UserId): UserId => SignIn.userOf(subject) ?? operator

const PressForm = Schema.Struct({ csrf: Schema.String, action: Schema.Literal("done", "hour", "morning", "cancel") })

/** POST /reminders/:id: the button pressed, as its reminder's user; back to the page with what happened. */
export const pressFromPage = Effect.gen(function*() {
  const who = yield* SignIn.current
  if (Option.isNone(who)) return yield* HttpServerResponse.redirect("/signin?next=%2Freminders", { status: 303 })
  const form = yield* HttpServerRequest.schemaBodyUrlParams(PressForm)
  if (!(yield* SignIn.WebKeys).isCsrf(who.value.cookie, form.csrf)) return yield* HttpServerResponse.text("Forbidden: a stale or missing form token", { status: 403 })
  const id = (yield* HttpRouter.params)["id"] ?? ""
  const found = yield* Effect.flatMap(ReminderBook, (book) => book.get(id as ReminderRow["reminderId"]))
  // A reminder of someone else's is as if it were not there.
  const user = Option.match(Option.filter(found, (r) => SignIn.maySee(who.value.subject, r.user)), { onNone: () => null, onSome: (r) => r.user })
  const said = user === null ? "That reminder is not there any more." : yield* press(id, form.action, user, [])
  return yield* HttpServerResponse.redirect(`/reminders?notice=${encodeURIComponent(said)}`, { status: 303 })
})

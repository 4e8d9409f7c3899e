/**
 * The reminders page: each reminder in the words that asked for it, when it is due on its own
 * clock, a link to those words marked in their note, and for one still to come (or delivered and
 * not yet done) the same choices as the chat's buttons, and a time of the user's own. A reminder
 * whose time is asked comes first, with the question's choices. Pressing one is the command a
 * button is.
 */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { type UserId } from "@verbatim/domain/Ids"
import { clockText, dueText, type ReminderAction, statusText } from "@verbatim/domain/Reminders/Text"
import type { ReminderRow } from "@verbatim/projections/ReminderBook"
import { DateTime, Effect, Either, Option, Schema } from "effect"
import { act, press, rescheduleTo } from "../Reminders/Actions.js"
import { setZone } from "../Reminders/ChatCommands.js"
import { ReminderBook } from "@verbatim/projections/ReminderBook"
import { type Html, html } from "./Html.js"
import * as SignIn from "./SignIn.js"


type PageAction = Exclude<ReminderAction, "page">

const actions: ReadonlyArray<readonly [PageAction, string]> = [["done", "Done"], ["hour", "Snooze 1 hour"], ["morning", "Tomorrow 09:00"], ["cancel", "Cancel"]]
const askingActions: ReadonlyArray<readonly [PageAction, string]> = [["morning", "Tomorrow 09:00"], ["monday", "Next Monday 09:00"], ["cancel", "No reminder"]]

const forms = (r: ReminderRow, csrf: string): Html => {
  const token = html`<input type="hidden" name="csrf" value="${csrf}">`
  const buttons = r.status === "asking" ? askingActions : actions
  return html`<form method="post" action="/reminders/${r.reminderId}" class="actions">${token}${
    buttons.map(([action, label]) => html`<button type="submit" name="action" value="${action}">${label}</button>`)
  }</form><form method="post" action="/reminders/${r.reminderId}" class="actions">${token}<label>At <input type="datetime-local" name="due" required${
    r.status === "asking" ? null : html` value="${r.dueLocal}"`
  }></label> <span class="muted">${r.zone}</span> <button type="submit" name="action" value="set">Set this time</button></form>`
}

const row = (r: ReminderRow, csrf: string): Html =>
  html`<li data-reminder><blockquote>&ldquo;${r.quote}&rdquo;</blockquote><p class="muted">${dueText(r)} · ${statusText[r.status]}${r.late ? " late" : ""}${
    r.noteId === null ? null : html` · <a href="/notes/${r.noteId}?mark=${encodeURIComponent(`${r.messageId}:${r.start}-${r.end}`)}">where you asked</a>`
  }</p>${r.status === "done" || r.status === "cancelled" ? null : forms(r, csrf)}</li>`

/** The form that sets the user's time zone, as `/tz` does in the chat. */
const zoneForm = (zone: string, csrf: string): Html =>
  html`<form method="post" action="/reminders/zone" class="actions"><input type="hidden" name="csrf" value="${csrf}"><label for="zone">Your time zone</label><input id="zone" name="zone" value="${zone}" autocomplete="off" spellcheck="false" required><button type="submit">Set</button></form>`

/** The user's reminders: those whose time is asked, to come or awaiting done first, then the finished ones; and their time zone. */
export const remindersPage = (open: ReadonlyArray<ReminderRow>, finished: ReadonlyArray<ReminderRow>, csrf: string, notice: string, zone: string): Html =>
  html`<h1>Reminders</h1>
<p class="muted">Each in the words you asked for it with. Ask for one in a message ("remind me on Friday to call Ana"). Times are on your time zone's clock (an IANA name such as Europe/Lisbon; /tz in the chat sets it too).</p>
${notice === "" ? null : html`<p role="status" class="notice">${notice}</p>`}
${zoneForm(zone, csrf)}
${open.length === 0 ? html`<p class="muted">Nothing coming up.</p>` : html`<ul class="list">${open.map((r) => row(r, csrf))}</ul>`}
<h2>Done and cancelled</h2>
${finished.length === 0 ? html`<p class="muted">None yet.</p>` : html`<ul class="list">${finished.map((r) => row(r, csrf))}</ul>`}`

/** Whose reminders a viewer sees: their own; the operator, the operator's. */
export const reminderUser = (subject: SignIn.Subject, operator: UserId): UserId => SignIn.userOf(subject) ?? operator

const PressForm = Schema.Struct({
  csrf: Schema.String,
  action: Schema.Literal("done", "hour", "morning", "monday", "cancel", "set"),
  /** The time of "Set this time", as a `datetime-local` input sends it. */
  due: Schema.optionalWith(Schema.String, { default: () => "" })
})

/** A time of the user's own: the reschedule, or why not, in words for the page's notice. */
const setTime = (r: ReminderRow, reading: string) =>
  Effect.gen(function*() {
    const command = rescheduleTo(r, reading.slice(0, 16), yield* DateTime.now)
    if (Either.isLeft(command)) return `Nothing changed: ${command.left}.`
    return yield* act(r.reminderId, command.right).pipe(
      Effect.as(`I will remind you at ${clockText(reading.slice(0, 16), r.zone)}.`),
      Effect.catchTag("Rejected", (rejection) => Effect.succeed(`Nothing changed: ${rejection.detail}.`))
    )
  })

const ZoneForm = Schema.Struct({ csrf: Schema.String, zone: Schema.String })

/** POST /reminders/zone: the viewer's time zone set by name, as `/tz` sets it; back to the page with what happened. */
export const zoneFromPage = (operator: UserId) =>
  Effect.gen(function*() {
    const who = yield* SignIn.current
    if (Option.isNone(who)) return yield* HttpServerResponse.redirect("/signin?next=%2Freminders", { status: 303 })
    const form = yield* HttpServerRequest.schemaBodyUrlParams(ZoneForm)
    if (!(yield* SignIn.WebKeys).isCsrf(who.value.cookie, form.csrf)) return yield* HttpServerResponse.text("Forbidden: a stale or missing form token", { status: 403 })
    const said = yield* setZone(reminderUser(who.value.subject, operator), form.zone.trim(), [])
    return yield* HttpServerResponse.redirect(`/reminders?notice=${encodeURIComponent(said)}`, { status: 303 })
  })

/** POST /reminders/:id: the button pressed, as its reminder's user; back to the page with what happened. */
export const pressFromPage = Effect.gen(function*() {
  const who = yield* SignIn.current
  if (Option.isNone(who)) return yield* HttpServerResponse.redirect("/signin?next=%2Freminders", { status: 303 })
  const form = yield* HttpServerRequest.schemaBodyUrlParams(PressForm)
  if (!(yield* SignIn.WebKeys).isCsrf(who.value.cookie, form.csrf)) return yield* HttpServerResponse.text("Forbidden: a stale or missing form token", { status: 403 })
  const id = (yield* HttpRouter.params)["id"] ?? ""
  const found = yield* Effect.flatMap(ReminderBook, (book) => book.get(id as ReminderRow["reminderId"]))
  // A reminder of someone else's is as if it were not there.
  const mine = Option.filter(found, (r) => SignIn.maySee(who.value.subject, r.user))
  const said = Option.isNone(mine)
    ? "That reminder is not there any more."
    : form.action === "set"
    ? yield* setTime(mine.value, form.due)
    : yield* press(id, form.action, mine.value.user, [])
  return yield* HttpServerResponse.redirect(`/reminders?notice=${encodeURIComponent(said)}`, { status: 303 })
})

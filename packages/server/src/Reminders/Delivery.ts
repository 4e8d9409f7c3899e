/**
 * Delivering reminders at their time, through the outbox, in the chat their message came from.
 * The reply is queued first under an id of the reminder and its due instant, then the delivery
 * recorded on the reminder's stream: a crash between the two queues nothing twice (the reply
 * stream takes one `ReplyQueued`) and the next pass records the delivery; two instances racing
 * deliver once (the stream's version lets one `ReminderDelivered` through). A reminder that fell
 * due while the service was down goes out when it starts, marked late when that is more than 5
 * minutes after its time (the reply's words are fixed when it is queued: one queued before a
 * crash and recorded after a long restart says "due" where its record says late). On WhatsApp,
 * more than 24 hours after the user last wrote, it goes out as the configured template, or is
 * held (`ReminderHeld`) and goes out, late, at the first pass after the user writes again. The
 * loop sleeps until the next reminder's time (at most a minute), and wakes when a reminder is
 * given a time.
 */
import { ReplyId } from "@verbatim/domain/Ids"
import { lateAfter, ReminderCommand } from "@verbatim/domain/Reminders/Decide"
import { deliveryText, reminderButtons } from "@verbatim/domain/Reminders/Text"
import { hasWindow, routeOf } from "@verbatim/domain/Reminders/Window"
import { ReminderBook, type ReminderRow } from "@verbatim/projections/ReminderBook"
import { Notebook } from "@verbatim/projections/Notebook"
import { Wakeups } from "@verbatim/projections/Wakeups"
import { Clock, DateTime, Duration, Effect, Option } from "effect"
import * as Replies from "../Replies.js"
import { markedLink, WebLinks } from "../WebLinks.js"
import { act } from "./Actions.js"
import { ReminderTemplate } from "./Template.js"

/** The longest the loop sleeps: the safety net of a wake-up missed (another instance's schedule heard late). */
const longestSleep = Duration.minutes(1)

/** Reminders delivered per read of what is due. */
const pageSize = 100

/** Whether the command on the reminder's stream recorded something (a refusal records nothing). */
const decided = (reminder: ReminderRow, command: ReminderCommand) =>
  act(reminder.reminderId, command).pipe(
    Effect.map((done) => done._tag === "Appended" && done.events.length > 0),
    Effect.catchTag("Rejected", () => Effect.succeed(false))
  )

/** Deliver one due (or released) reminder: true when this pass recorded its delivery. */
export const deliver = Effect.fn("Reminders.deliver")(function*(reminder: ReminderRow) {
  const now = yield* DateTime.now
  const { template } = yield* ReminderTemplate
  const heard = hasWindow(reminder.provider) ? Option.getOrNull(yield* Effect.flatMap(ReminderBook, (book) => book.lastHeardFrom(reminder.user))) : null
  const route = routeOf(reminder.provider, heard, DateTime.toEpochMillis(now), Option.isSome(template))
  if (route === "hold") {
    if (reminder.status !== "held") yield* decided(reminder, ReminderCommand.Hold({ now }))
    return false
  }
  const late = DateTime.greaterThan(now, DateTime.addDuration(reminder.dueAt, lateAfter))
  const note = reminder.noteId === null ? Option.none() : yield* Effect.flatMap(Notebook, (read) => read.note(reminder.noteId!))
  const base = (yield* WebLinks).publicUrl
  const link = Option.isSome(base) && Option.isSome(note) ? markedLink(base.value, note.value.id, reminder) : null
  const filed = Option.map(note, (n) => ({ about: n.owner._tag === "Person" ? n.owner.name : null, body: n.body }))
  yield* Replies.queue({
    replyId: ReplyId.make(`reminder:${reminder.reminderId}:${DateTime.toEpochMillis(reminder.dueAt)}`),
    user: reminder.user,
    provider: reminder.provider,
    chat: reminder.chat,
    text: deliveryText({ ...reminder, late, note: Option.getOrNull(filed), link }),
    buttons: route === "template" ? [] : reminderButtons(reminder.reminderId, link),
    questionId: null,
    ...(route === "template" && Option.isSome(template) ? { template: { ...template.value, parameters: [reminder.quote] } } : {})
  })
  return yield* decided(reminder, ReminderCommand.Deliver({ now }))
})

/** Deliver what is due now; how long until the next reminder falls due (at most a minute). */
export const pass = Effect.gen(function*() {
  const book = yield* ReminderBook
  const now = yield* Clock.currentTimeMillis
  // Due now, and held ones whose user has written since (WhatsApp's window open again).
  const due = [...yield* book.due(now, pageSize), ...yield* book.released(pageSize)]
  let delivered = 0
  for (const reminder of due) {
    const done = yield* deliver(reminder).pipe(
      Effect.catchAllCause((cause) =>
        Effect.as(Effect.logError("delivering a reminder failed", cause).pipe(Effect.annotateLogs({ reminderId: reminder.reminderId })), false)
      )
    )
    if (done) delivered++
  }
  // A full page that moved: more are due, go on at once. A full page of failures: try again in a second, not in a spin.
  if (due.length >= pageSize) return delivered > 0 ? Duration.zero : Duration.seconds(1)
  const next = yield* book.nextDue
  const after = yield* Clock.currentTimeMillis
  return Option.match(next, {
    onNone: () => longestSleep,
    onSome: (at) => Duration.min(longestSleep, Duration.millis(at > after ? at - after : 1_000))
  })
})

/** Deliver reminders as they fall due, for as long as the service runs. */
export const run = Effect.flatMap(Wakeups, (wakeups) =>
  wakeups.loop(["ReminderTimes"], (wait: Duration.Duration) => wait, pass.pipe(Effect.catchAllCause((cause) => Effect.as(Effect.logError("the reminders pass failed", cause), longestSleep)))))

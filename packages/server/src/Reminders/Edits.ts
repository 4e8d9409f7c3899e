/**
 * A reminder whose words an edit took away is cancelled, and its user told, quoting the words it
 * had. An edit that keeps the words leaves the reminder be. The pass reads what the read model
 * says has no words left, so a crash between the cancel and the reply loses neither: the cancel is
 * decided once, and the reply is queued once under the reminder's id.
 */
import { ReplyId } from "@verbatim/domain/Ids"
import { ReminderCommand } from "@verbatim/domain/Reminders/Decide"
import { ReminderBook } from "@verbatim/projections/ReminderBook"
import { Wakeups } from "@verbatim/projections/Wakeups"
import { DateTime, Effect } from "effect"
import * as Replies from "../Replies.js"
import { act } from "./Actions.js"

/** Cancel what edits left without words; how many this pass cancelled. */
export const pass = Effect.gen(function*() {
  const book = yield* ReminderBook
  let cancelled = 0
  for (const reminder of yield* book.withoutTheirWords(100)) {
    const now = yield* DateTime.now
    const done = yield* act(reminder.reminderId, ReminderCommand.Cancel({ by: reminder.user, now, reason: "quote-edited-away" })).pipe(
      Effect.catchTag("Rejected", () => Effect.succeed(null))
    )
    yield* Replies.queue({
      replyId: ReplyId.make(`reminder-edited:${reminder.reminderId}`),
      user: reminder.user,
      provider: reminder.provider,
      chat: reminder.chat,
      text: `Your edit took away the words of a reminder, so it is cancelled: "${reminder.quote}"`,
      buttons: [],
      questionId: null
    })
    if (done?._tag === "Appended") cancelled += 1
  }
  return cancelled
})

/** Cancel reminders as edits take their words away (and every minute, the safety net of a missed wake-up). */
export const run = Effect.flatMap(Wakeups, (wakeups) =>
  wakeups.loop(["MessageEdited"], "1 minute", pass.pipe(Effect.catchAllCause((cause) => Effect.as(Effect.logError("the reminders' edit pass failed", cause), 0)))))

/**
 * A button pressed on a reminder: done, an hour later, or 09:00 tomorrow or next Monday on the
 * reminder's own clock; cancel; or the way to the page. Each is a command on the reminder's stream, taken from its own user only;
 * what the press did, in words for the button's notice and the chat.
 */
import type { UserId } from "@verbatim/domain/Ids"
import { ReminderId } from "@verbatim/domain/Ids"
import { ReminderCommand, reminderDecider } from "@verbatim/domain/Reminders/Decide"
import { dueAfter } from "@verbatim/domain/Reminders/Choices"
import { formatLocal, instantOf, parseLocal } from "@verbatim/domain/Reminders/LocalTime"
import { actionText, pageText, type ReminderAction } from "@verbatim/domain/Reminders/Text"
import { reminderStream } from "@verbatim/domain/Streams"
import type { IdempotencyKey } from "@verbatim/projections/EventStore"
import { ReminderBook } from "@verbatim/projections/ReminderBook"
import { DateTime, Effect, Either, Option } from "effect"
import * as Runner from "../Runner.js"
import { WebLinks } from "../WebLinks.js"

/** A reschedule to a clock reading (`YYYY-MM-DDTHH:MM`) on the reminder's own clock, or why the reading is not one. */
export const rescheduleTo = (
  reminder: { readonly user: UserId; readonly zone: string },
  reading: string,
  now: DateTime.Utc
): Either.Either<ReminderCommand, string> =>
  Option.match(parseLocal(reading), {
    onNone: () => Either.left(`${reading === "" ? "no time" : reading} is not a day and time of the calendar`),
    onSome: (local) =>
      Either.right(ReminderCommand.Reschedule({
        by: reminder.user,
        now,
        due: { dueAt: DateTime.unsafeMake(instantOf(reminder.zone, local).epochMillis), zone: reminder.zone, local: formatLocal(local) }
      }))
  })

/** A command on a reminder's stream: what it leaves, or the decider's refusal. */
export const act = (reminderId: ReminderId, command: ReminderCommand, keys: ReadonlyArray<IdempotencyKey> = []) =>
  Runner.run(reminderDecider, reminderStream(reminderId), () => Effect.succeed(command), { keep: false, keys })

/**
 * Do what the button says, recorded under the press's key (a redelivered press does nothing); the
 * words that tell the user what happened. On a reminder whose time is asked, a time is its
 * answer (a reschedule, not a snooze) and cancel is "no reminder".
 */
export const press = Effect.fn("Reminders.press")(function*(id: string, action: ReminderAction, user: UserId, keys: ReadonlyArray<IdempotencyKey>) {
  const reminderId = ReminderId.make(id)
  const found = yield* Effect.flatMap(ReminderBook, (book) => book.get(reminderId))
  if (Option.isNone(found) || found.value.user !== user) return "That reminder is not there any more."
  if (action === "page") return pageText(Option.getOrNull((yield* WebLinks).publicUrl))
  const now = yield* DateTime.now
  const asking = found.value.status === "asking"
  const due = action === "hour" || action === "morning" || action === "monday" ? dueAfter(action, now, found.value.zone) : null
  const command = due !== null
    ? asking ? ReminderCommand.Reschedule({ by: user, now, due }) : ReminderCommand.Snooze({ by: user, now, due })
    : action === "cancel"
    ? ReminderCommand.Cancel({ by: user, now, reason: "user" })
    : ReminderCommand.Done({ by: user, now })
  return yield* act(reminderId, command, keys).pipe(
    Effect.as(actionText(action, due ?? null, asking)),
    Effect.catchTag("Rejected", (rejection) => Effect.succeed(`Nothing changed: ${rejection.detail}.`))
  )
})

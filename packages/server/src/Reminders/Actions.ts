/**
 * A button pressed on a delivered reminder: done, an hour later, or tomorrow at 09:00 on the
 * reminder's own clock. Each is a command on the reminder's stream, taken from its own user only;
 * what the press did, in words for the button's notice and the chat.
 */
import type { UserId } from "@verbatim/domain/Ids"
import { ReminderId } from "@verbatim/domain/Ids"
import { ReminderCommand, reminderDecider } from "@verbatim/domain/Reminders/Decide"
import type { Due } from "@verbatim/domain/Reminders/Events"
import { formatLocal, instantOf, localAt } from "@verbatim/domain/Reminders/LocalTime"
import { actionText, type ReminderAction } from "@verbatim/domain/Reminders/Text"
import { reminderStream } from "@verbatim/domain/Streams"
import type { IdempotencyKey } from "@verbatim/projections/EventStore"
import { ReminderBook } from "@verbatim/projections/ReminderBook"
import { DateTime, Effect, Option } from "effect"
import * as Runner from "../Runner.js"

/** When a snooze puts the reminder: an hour from now, or the next morning at 09:00, in `zone`. */
export const snoozedDue = (action: "hour" | "morning", now: DateTime.Utc, zone: string): Due => {
  if (action === "hour") {
    const dueAt = DateTime.add(now, { hours: 1 })
    return { dueAt, zone, local: formatLocal(localAt(zone, DateTime.toEpochMillis(dueAt))) }
  }
  const today = localAt(zone, DateTime.toEpochMillis(now))
  const tomorrow = localAt("UTC", Date.UTC(today.year, today.month - 1, today.day + 1, 9, 0))
  return { dueAt: DateTime.unsafeMake(instantOf(zone, tomorrow).epochMillis), zone, local: formatLocal(tomorrow) }
}

/** A command on a reminder's stream: what it leaves, or the decider's refusal. */
export const act = (reminderId: ReminderId, command: ReminderCommand, keys: ReadonlyArray<IdempotencyKey> = []) =>
  Runner.run(reminderDecider, reminderStream(reminderId), () => Effect.succeed(command), { keep: false, keys })

/** Do what the button says, recorded under the press's key (a redelivered press does nothing); the words that tell the user what happened. */
export const press = Effect.fn("Reminders.press")(function*(id: string, action: ReminderAction, user: UserId, keys: ReadonlyArray<IdempotencyKey>) {
  const reminderId = ReminderId.make(id)
  const found = yield* Effect.flatMap(ReminderBook, (book) => book.get(reminderId))
  if (Option.isNone(found) || found.value.user !== user) return "That reminder is not there any more."
  const now = yield* DateTime.now
  const due = action === "hour" || action === "morning" ? snoozedDue(action, now, found.value.zone) : null
  const command = due !== null
    ? ReminderCommand.Snooze({ by: user, now, due })
    : action === "cancel"
    ? ReminderCommand.Cancel({ by: user, now, reason: "user" })
    : ReminderCommand.Done({ by: user, now })
  return yield* act(reminderId, command, keys).pipe(
    Effect.as(actionText(action, due?.local ?? null)),
    Effect.catchTag("Rejected", (rejection) => Effect.succeed(`Nothing changed: ${rejection.detail}.`))
  )
})

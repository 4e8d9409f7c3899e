/**
 * The reminders' endpoints. The bearer token speaks for every user, so each change is made as the
 * reminder's own user: what the decider refuses is a 409 (done already, cancelled), a time that
 * has passed a 400, a reminder that is not there a 404.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Api, BadRequest, Conflict, NotFound } from "@verbatim/domain/Api"
import * as Withheld from "@verbatim/domain/OperatorReads/Withheld"
import { type Reminder, ReminderState } from "@verbatim/domain/RemindersApi"
import type { ReminderId } from "@verbatim/domain/Ids"
import { ReminderCommand } from "@verbatim/domain/Reminders/Decide"
import type { EventStore } from "@verbatim/projections/EventStore"
import type { FoldCache } from "@verbatim/projections/FoldCache"
import { ReminderBook, type ReminderRow } from "@verbatim/projections/ReminderBook"
import { DateTime, Effect, Either, Option } from "effect"
import { dueAfter } from "@verbatim/domain/Reminders/Choices"
import { listed, listedOne, operator, type OperatorReads } from "../OperatorReads.js"
import { act, rescheduleTo } from "../Reminders/Actions.js"

const states = ReminderState.literals

const shown = (r: ReminderRow): Reminder => ({
  id: r.reminderId,
  user: r.user,
  sessionId: r.sessionId,
  messageId: r.messageId,
  noteId: r.noteId,
  quote: r.quote,
  start: r.start,
  end: r.end,
  dueAt: r.status === "asking" ? null : r.dueAt,
  zone: r.zone,
  dueLocal: r.status === "asking" ? null : r.dueLocal,
  status: r.status,
  late: r.late
})

export const layer = HttpApiBuilder.group(Api, "reminders", (handlers) =>
  Effect.gen(function*() {
    const book = yield* ReminderBook
    const context = yield* Effect.context<EventStore | FoldCache | OperatorReads>()
    const whose = (r: Reminder) => ({ user: r.user, id: r.id })
    const found = (id: ReminderId) =>
      Effect.flatMap(Effect.orDie(book.get(id)), Option.match({ onNone: () => Effect.fail(new NotFound({ resource: "reminder", id })), onSome: Effect.succeed }))
    /** Run the command the reminder and the time make, as its user; answer with the reminder as it now stands. */
    const change = (id: ReminderId, command: (reminder: ReminderRow, now: DateTime.Utc) => Effect.Effect<ReminderCommand, BadRequest>) =>
      Effect.gen(function*() {
        const reminder = yield* found(id)
        const now = yield* DateTime.now
        yield* act(id, yield* command(reminder, now)).pipe(
          Effect.provide(context),
          Effect.catchTag("StoreError", Effect.die),
          Effect.mapError((rejection): BadRequest | Conflict =>
            rejection.reason === "invalid" ? new BadRequest({ message: rejection.detail }) : new Conflict({ message: rejection.detail }))
        )
        return yield* listedOne(operator, "reminders", shown(yield* found(id)), whose, Withheld.reminder).pipe(Effect.provide(context))
      })
    return handlers
      .handle("reminders", ({ urlParams }) =>
        Effect.gen(function*() {
          const rows = yield* Effect.orDie(book.of(urlParams.user, urlParams.status === undefined ? states : [urlParams.status], 200))
          return { items: yield* listed(operator, "reminders", rows.map(shown), whose, Withheld.reminder).pipe(Effect.provide(context)) }
        }))
      .handle("reminderDone", ({ path }) => change(path.id, (r, now) => Effect.succeed(ReminderCommand.Done({ by: r.user, now }))))
      .handle("cancelReminder", ({ path }) => change(path.id, (r, now) => Effect.succeed(ReminderCommand.Cancel({ by: r.user, now, reason: "user" }))))
      .handle("snoozeReminder", ({ path, payload }) =>
        change(path.id, (r, now) => Effect.succeed(ReminderCommand.Snooze({ by: r.user, now, due: dueAfter(payload.until, now, r.zone) }))))
      .handle("rescheduleReminder", ({ path, payload }) =>
        change(path.id, (r, now) => Either.match(rescheduleTo(r, payload.due, now), {
          onLeft: (why) => Effect.fail(new BadRequest({ message: `due: ${why}` })),
          onRight: Effect.succeed
        })))
  }))

/** The reminders' read side: what is due, what a user has, one reminder. A service of its own beside the notebook, the session lookups, the jobs and the event log. */
import { SqlClient } from "@effect/sql/SqlClient"
import type { MessageId, PlanId, ReminderId, SessionId, UserId } from "@verbatim/domain/Ids"
import { Context, Effect, Layer, Option } from "effect"
import type { StoreError } from "./EventStore.js"
import { runOn } from "./internal/Rows.js"
import * as Q from "./Queries/Reminders.js"
import type { ReminderRow, ReminderStatus } from "./Queries/Reminders.js"

export type { ReminderRow, ReminderStatus } from "./Queries/Reminders.js"

export class ReminderBook extends Context.Tag("@verbatim/projections/ReminderBook")<ReminderBook, {
  /** Reminders still to deliver due at or before `now` (epoch ms), soonest first, at most `limit`. */
  readonly due: (now: number, limit: number) => Effect.Effect<ReadonlyArray<ReminderRow>, StoreError>
  /** When the next reminder still to deliver falls due (epoch ms). */
  readonly nextDue: Effect.Effect<Option.Option<number>, StoreError>
  /** A user's reminders in the given states, soonest due first. */
  readonly of: (user: UserId, statuses: ReadonlyArray<ReminderStatus>, limit: number) => Effect.Effect<ReadonlyArray<ReminderRow>, StoreError>
  readonly get: (reminderId: ReminderId) => Effect.Effect<Option.Option<ReminderRow>, StoreError>
  /** The reminders whose words are in a message. */
  readonly ofMessage: (messageId: MessageId) => Effect.Effect<ReadonlyArray<ReminderRow>, StoreError>
  /** The reminders a session's plans set or asked about, each with the plan that did. */
  readonly ofSession: (sessionId: SessionId) => Effect.Effect<ReadonlyArray<ReminderRow & { readonly planId: PlanId }>, StoreError>
  /** Reminders held for WhatsApp's window whose user has written since. */
  readonly released: (limit: number) => Effect.Effect<ReadonlyArray<ReminderRow>, StoreError>
  /** When a user's newest message was received (epoch ms), if they sent any. */
  readonly lastHeardFrom: (user: UserId) => Effect.Effect<Option.Option<number>, StoreError>
  /** Reminders not yet done or cancelled whose words their message no longer holds (an edit took them away). */
  readonly withoutTheirWords: (limit: number) => Effect.Effect<ReadonlyArray<ReminderRow>, StoreError>
  /** The time zone a user set last, if they set one. */
  readonly zoneOf: (user: UserId) => Effect.Effect<Option.Option<string>, StoreError>
  /** Applied plans whose reminders are still to be taken, oldest first. */
  readonly owed: (limit: number) => Effect.Effect<ReadonlyArray<{ readonly planId: PlanId; readonly sessionId: SessionId }>, StoreError>
}>() {}

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient
  const run = runOn(sql)
  return ReminderBook.of({
    due: (now, limit) => run(Q.dueReminders(now, limit)),
    nextDue: run(Q.nextDue),
    of: (user, statuses, limit) => run(Q.remindersOf(user, statuses, limit)),
    get: (reminderId) => run(Q.reminder(reminderId)),
    ofMessage: (messageId) => run(Q.messageReminders(messageId)),
    ofSession: (sessionId) => run(Q.sessionReminders(sessionId)),
    released: (limit) => run(Q.releasedReminders(limit)),
    lastHeardFrom: (user) => run(Effect.map(Q.lastHeardFrom(user), Option.map(Date.parse))),
    owed: (limit) => run(Q.plansOwingReminders(limit)),
    zoneOf: (user) => run(Q.userZone(user)),
    withoutTheirWords: (limit) => run(Q.remindersWithoutTheirWords(limit))
  })
})

/** The reminders' read side on the store's database. */
export const layer: Layer.Layer<ReminderBook, never, SqlClient> = Layer.effect(ReminderBook, make)

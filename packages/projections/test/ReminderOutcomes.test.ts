/**
 * The accounting of a session's reminders, on SQLite and on PostgreSQL: each reminder its live
 * plans proposed, the one outcome it came to and the reminder's state now; a superseded plan's
 * are not shown; a store migrated from before the outcomes were kept reads them from its log
 * exactly as a rebuild writes them.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import type { Event } from "@verbatim/domain/Events"
import { PlanId, ReminderId, SessionId } from "@verbatim/domain/Ids"
import { fillReminderOutcomes } from "@verbatim/projections/Migrations"
import { rebuild } from "@verbatim/projections/Projections/Rebuild"
import { Notebook } from "@verbatim/projections/Notebook"
import type { Services } from "@verbatim/projections/Store"
import * as Database from "@verbatim/testkit/Database"
import * as G from "@verbatim/testkit/Given"
import * as R from "@verbatim/testkit/GivenReminders"
import { Effect, Option } from "effect"
import type { Layer } from "effect"

const text = "Ana moves in May. Remind me to call “Ana” 👩🏽‍💻 on Friday."
const quote = "Remind me to call “Ana” 👩🏽‍💻 on Friday."

const taken = (planId: string, reminders: ReadonlyArray<Record<string, unknown>>): Event => ({
  _tag: "RemindersTaken",
  planId: PlanId.make(planId),
  sessionId: SessionId.make("s"),
  user: G.user,
  reminders
} as Event)

const outcomes = [
  { seq: 1, quote, outcome: "scheduled", reminderId: ReminderId.make("r1"), detail: null },
  { seq: 1, quote: "remind me about the flat", outcome: "not-a-quote", reminderId: null, detail: null },
  { seq: 1, quote: "Remind me", outcome: "ask-when", reminderId: ReminderId.make("r2"), detail: "unreadable: someday" }
]

const history = G.given(
  [G.sessionStream("s"), [G.sessionOpened("s"), G.messageReceived("s", 1, text), G.sessionClosed("s", 1)]],
  [G.sessionStream("s"), [G.planProduced("s", "p0", 1), G.planApplied("s", "p0")]],
  ["plan-reminders-p0", [taken("p0", [{ seq: 1, quote: "old", outcome: "not-a-quote", reminderId: null, detail: null }])]],
  [G.sessionStream("s"), [G.planProduced("s", "p1", 1, ["p0"]), G.planApplied("s", "p1")]],
  [R.stream("r1"), [R.reminderScheduled("r1", "s", 1, quote, { start: text.indexOf(quote), planId: "p1" })]],
  [R.stream("r2"), [R.reminderTimeAsked("r2", "s", 1, "Remind me", { start: text.indexOf(quote), planId: "p1" }), R.reminderCancelled("r2", 10)]],
  ["plan-reminders-p1", [taken("p1", outcomes)]]
)

const expected = [
  { planId: "p1", seq: 1, quote, outcome: "scheduled", detail: null, reminderId: "r1", status: "scheduled" },
  { planId: "p1", seq: 1, quote: "remind me about the flat", outcome: "not-a-quote", detail: null, reminderId: null, status: null },
  { planId: "p1", seq: 1, quote: "Remind me", outcome: "ask-when", detail: "unreadable: someday", reminderId: "r2", status: "cancelled" }
]

const conformance = (layer: () => Layer.Layer<Services, unknown>) => {
  it.effect("shows each reminder the live plans proposed with its outcome and its state now; rebuilt and migrated alike", () =>
    Effect.gen(function*() {
      yield* history
      const read = yield* Notebook
      const reminders = Effect.map(read.sessionAccounting(SessionId.make("s")), (view) => Option.getOrThrow(view).reminders)
      expect(yield* reminders).toEqual(expected)
      const sql = yield* SqlClient
      const stored = sql<{ plan_id: string; reminder_outcomes: string | null }>`SELECT plan_id, reminder_outcomes FROM plans ORDER BY plan_id`
      yield* rebuild()
      const rebuilt = yield* stored
      expect(yield* reminders).toEqual(expected)
      yield* sql`UPDATE plans SET reminder_outcomes = NULL`
      yield* fillReminderOutcomes
      expect(yield* stored).toEqual(rebuilt)
      expect(yield* reminders).toEqual(expected)
    }).pipe(Effect.provide(layer())))
}

describe("a session's reminders in its accounting on SQLite", () => {
  conformance(() => Database.sqlite())
})

describe("a session's reminders in its accounting on PostgreSQL", () => {
  conformance(() => Database.pg)
})

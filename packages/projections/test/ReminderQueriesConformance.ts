/** The reminders' read side, run against every backend: what is due, a user's list, one reminder, a message's reminders. */
import { expect, it } from "@effect/vitest"
import { MessageId, NoteId, ReminderId, SessionId, UserId } from "@verbatim/domain/Ids"
import { ReminderBook, type ReminderStatus } from "@verbatim/projections/ReminderBook"
import type { Services } from "@verbatim/projections/Store"
import * as G from "@verbatim/testkit/Given"
import * as R from "@verbatim/testkit/GivenReminders"
import { DateTime, Effect, Option } from "effect"
import type { Layer } from "effect"

const text = "Ana moves in May, remind me tomorrow"
const quote = "remind me tomorrow"
const start = text.indexOf(quote)

/** A session whose message 1 holds `text`, with reminders `ids` from its words, due 100 s apart from `dueIn`. */
const history = (ids: ReadonlyArray<string>, dueIn = 1_000) =>
  G.given(
    [G.sessionStream("s1"), [G.sessionOpened("s1"), G.messageReceived("s1", 1, text)]],
    ...ids.map((id, i) => [R.stream(id), [R.reminderScheduled(id, "s1", 1, quote, { start, noteId: "n1", dueIn: dueIn + i * 100 })]] as const)
  )

const row = (id: string, dueIn: number, status: ReminderStatus = "scheduled", late = false) => ({
  reminderId: ReminderId.make(id),
  user: G.user,
  sessionId: SessionId.make("s1"),
  messageId: MessageId.make("s1/1"),
  quote,
  start,
  end: start + quote.length,
  noteId: NoteId.make("n1"),
  dueAt: G.at(dueIn),
  zone: "UTC",
  dueLocal: R.due(dueIn).local,
  status,
  late,
  provider: "telegram",
  chat: "100000001",
  messageText: text
})

/** Register the suite for one backend; each test gets a fresh database. */
export const reminderQueriesConformance = (layer: () => Layer.Layer<Services, unknown>) => {
  it.effect("finds what is due, soonest first, up to the limit, and when the next falls due", () =>
    Effect.gen(function*() {
      yield* history(["r1", "r2", "r3"])
      yield* G.given([R.stream("r1"), [R.reminderDelivered("r1", 1_000)]])
      const book = yield* ReminderBook
      const at = (seconds: number) => DateTime.toEpochMillis(G.at(seconds))
      expect(yield* book.due(at(999), 10)).toEqual([])
      expect(yield* book.due(at(1_150), 10)).toEqual([row("r2", 1_100)])
      expect(yield* book.due(at(5_000), 1)).toEqual([row("r2", 1_100)])
      expect(yield* book.due(at(5_000), 10)).toEqual([row("r2", 1_100), row("r3", 1_200)])
      expect(yield* book.nextDue).toEqual(Option.some(at(1_100)))
    }).pipe(Effect.provide(layer())))

  it.effect("follows a reminder through snooze, done and cancel, and lists a user's by state", () =>
    Effect.gen(function*() {
      yield* history(["r1", "r2", "r3"])
      yield* G.given(
        [R.stream("r1"), [R.reminderDelivered("r1", 1_400, true), R.reminderSnoozed("r1", 1_500, 9_000)]],
        [R.stream("r2"), [R.reminderDelivered("r2", 1_100), R.reminderDone("r2", 1_200)]],
        [R.stream("r3"), [R.reminderCancelled("r3", 1_300)]]
      )
      const book = yield* ReminderBook
      expect(yield* book.of(G.user, ["scheduled", "delivered"], 10)).toEqual([row("r1", 9_000, "scheduled", true)])
      expect(yield* book.of(G.user, ["done", "cancelled"], 10)).toEqual([row("r2", 1_100, "done"), row("r3", 1_200, "cancelled")])
      expect(yield* book.of(UserId.make("telegram:999"), ["scheduled", "delivered", "done", "cancelled"], 10)).toEqual([])
      expect(yield* book.get(ReminderId.make("r2"))).toEqual(Option.some(row("r2", 1_100, "done")))
      expect(yield* book.get(ReminderId.make("nope"))).toEqual(Option.none())
      expect((yield* book.ofMessage(MessageId.make("s1/1"))).map((r) => r.reminderId)).toEqual(["r1", "r2", "r3"])
      expect(yield* book.nextDue).toEqual(Option.some(DateTime.toEpochMillis(G.at(9_000))))
    }).pipe(Effect.provide(layer())))

  it.effect("finds the reminders an edit left without their words, not those it kept them for, nor finished ones", () =>
    Effect.gen(function*() {
      yield* history(["r1", "r2"])
      const book = yield* ReminderBook
      yield* G.given([G.sessionStream("s1"), [G.messageEdited("s1", 1, `${text}, please`, 1_500)]])
      expect(yield* book.withoutTheirWords(10)).toEqual([])
      yield* G.given([R.stream("r2"), [R.reminderDone("r2", 1_600)]], [G.sessionStream("s1"), [G.messageEdited("s1", 1, "Ana moves in May", 1_700)]])
      expect((yield* book.withoutTheirWords(10)).map((r) => [r.reminderId, r.messageText])).toEqual([["r1", "Ana moves in May"]])
    }).pipe(Effect.provide(layer())))

  it.effect("keeps a reminder whose time is asked out of what is due, lists it first, and names each reminder's plan by session", () =>
    Effect.gen(function*() {
      yield* history(["r1"])
      yield* G.given([R.stream("r0"), [R.reminderTimeAsked("r0", "s1", 1, quote, { start, planId: "p2", seconds: 500 })]])
      const book = yield* ReminderBook
      expect(yield* book.due(DateTime.toEpochMillis(G.at(99_999)), 10)).toEqual([row("r1", 1_000)])
      const asking = { ...row("r0", 500, "asking"), noteId: null, dueLocal: "" }
      expect(yield* book.of(G.user, ["asking", "scheduled"], 10)).toEqual([asking, row("r1", 1_000)])
      expect((yield* book.ofSession(SessionId.make("s1"))).map((r) => [r.reminderId, r.planId, r.status])).toEqual([
        ["r1", "plan-s1", "scheduled"],
        ["r0", "p2", "asking"]
      ])
      // An edit that takes its words away leaves it without them, as it does a reminder with a time.
      yield* G.given([G.sessionStream("s1"), [G.messageEdited("s1", 1, "Ana moves in May", 1_700)]])
      expect((yield* book.withoutTheirWords(10)).map((r) => r.reminderId).sort()).toEqual(["r0", "r1"])
    }).pipe(Effect.provide(layer())))

  it.effect("finds a held reminder once its user has written after it was held, and says when a user was last heard from", () =>
    Effect.gen(function*() {
      yield* history(["r1", "r2"])
      const book = yield* ReminderBook
      yield* G.given([R.stream("r1"), [R.reminderHeld("r1", 1_000)]])
      expect(yield* book.released(10)).toEqual([])
      expect(yield* book.due(DateTime.toEpochMillis(G.at(99_999)), 10)).toEqual([row("r2", 1_100)])
      expect(yield* book.lastHeardFrom(G.user)).toEqual(Option.some(DateTime.toEpochMillis(G.at(1))))
      expect(yield* book.lastHeardFrom(UserId.make("telegram:999"))).toEqual(Option.none())
      // A message received at 1,500 s (a message's receipt is its seq's second).
      yield* G.given([G.sessionStream("s2"), [G.sessionOpened("s2"), G.messageReceived("s2", 1_500, "hi")]])
      expect((yield* book.released(10)).map((r) => [r.reminderId, r.status])).toEqual([["r1", "held"]])
      expect(yield* book.lastHeardFrom(G.user)).toEqual(Option.some(DateTime.toEpochMillis(G.at(1_500))))
    }).pipe(Effect.provide(layer())))
}

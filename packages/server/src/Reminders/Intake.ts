/**
 * Taking a plan's reminders: each proposal of an applied plan checked against the session's
 * messages (`proposedReminders`), the ones with exact words and a clear time scheduled on their
 * own streams, those with exact words and no clear time asked of the sender (a question with
 * buttons, the reminder waiting for its answer), the sender told of words not found, and the
 * outcome of every one recorded once (`RemindersTaken`). A promoted replay's plan re-derives the
 * session's reminders: those the plans it replaced set and no live plan asks for any more are
 * cancelled, unless the user acted on them (`Replanned`). Safe to repeat after a crash at any
 * step: a reminder is scheduled once, a question asked once, a reply queued once, the outcomes
 * recorded once. A pass takes what applied plans still owe (`ReminderBook.owed`), woken when a
 * plan is applied.
 */
import type { PlanId, SessionId, UserId } from "@verbatim/domain/Ids"
import { ReplyId } from "@verbatim/domain/Ids"
import { sentAtOf } from "@verbatim/domain/Message"
import { ReminderCommand } from "@verbatim/domain/Reminders/Decide"
import { type ProposedReminder, proposedReminders, remindersOf } from "@verbatim/domain/Reminders/FromPlan"
import { TakeCommand, takeDecider } from "@verbatim/domain/Reminders/Take"
import { askTimeButtons, askTimeText, untakenText } from "@verbatim/domain/Reminders/Text"
import { planRemindersStream, sessionStream } from "@verbatim/domain/Streams"
import { EventStore } from "@verbatim/projections/EventStore"
import { ReminderBook } from "@verbatim/projections/ReminderBook"
import { Wakeups } from "@verbatim/projections/Wakeups"
import { DateTime, Effect } from "effect"
import * as Replies from "../Replies.js"
import * as Runner from "../Runner.js"
import { load } from "../Sessions.js"
import { TimeZones } from "../TimeZones.js"
import * as Actions from "./Actions.js"
import * as Replanned from "./Replanned.js"

const outcomeOf = (p: ProposedReminder) =>
  p._tag === "Schedule"
    ? { seq: p.seq, quote: p.quote, outcome: "scheduled" as const, reminderId: p.reminderId, detail: null }
    : p._tag === "NotAQuote"
    ? { seq: p.seq, quote: p.quote, outcome: "not-a-quote" as const, reminderId: null, detail: null }
    : { seq: p.seq, quote: p.quote, outcome: "ask-when" as const, reminderId: p.reminderId, detail: `${p.why}: ${p.due}` }

/** Record the outcomes of a plan's reminders, once. */
const record = (planId: PlanId, sessionId: SessionId, user: UserId, proposals: ReadonlyArray<ProposedReminder>) =>
  Runner.run(takeDecider, planRemindersStream(planId), () =>
    Effect.succeed(TakeCommand.Take({ taken: { planId, sessionId, user, reminders: proposals.map(outcomeOf) } })), { keep: false }).pipe(
    Effect.catchTag("Rejected", () => Effect.void)
  )

/** Take one applied plan's reminders; how many were scheduled now. */
export const takePlan = Effect.fn("Reminders.takePlan")(function*(planId: PlanId, sessionId: SessionId) {
  const store = yield* EventStore
  const events = yield* store.readStream(sessionStream(sessionId))
  const produced = events.find((e) => e.event._tag === "PlanProduced" && e.event.planId === planId)?.event
  const { state } = yield* load(sessionId)
  if (state.user === null || state.provider === null || state.chat === null) return 0
  const user = state.user
  if (produced?._tag !== "PlanProduced") {
    // Not a plan of this session: nothing of it can be taken. Recorded as taken with no outcomes, so it is not looked at again.
    yield* Effect.logWarning("an applied plan is not in its session; its reminders are not taken").pipe(Effect.annotateLogs({ planId, sessionId }))
    yield* record(planId, sessionId, user, [])
    return 0
  }
  const zone = yield* Effect.flatMap(TimeZones, (zones) => zones.zoneOf(user))
  const sources = state.messages.map((m) => ({ seq: m.seq, messageId: m.id, text: m.text, sentAt: sentAtOf(m) }))
  const proposals = proposedReminders(remindersOf(produced.plan), sources, zone)
  const noteOf = new Map([...state.notes.values()].flatMap((note) => note.sources.map((s) => [s.messageId, note.noteId] as const)))
  const now = yield* DateTime.now
  let scheduled = 0
  for (const p of proposals) {
    if (p._tag === "NotAQuote") continue
    const words = {
      reminderId: p.reminderId,
      user,
      sessionId,
      planId,
      messageId: p.messageId,
      quote: p.quote,
      start: p.start,
      end: p.end,
      noteId: noteOf.get(p.messageId) ?? null
    }
    const command = p._tag === "Schedule"
      ? ReminderCommand.Schedule({ scheduled: { ...words, due: { dueAt: p.dueAt, zone, local: p.local } } })
      : ReminderCommand.AskTime({ asked: { ...words, zone, proposed: p.due, why: p.why, askedAt: now } })
    const done = yield* Actions.act(p.reminderId, command).pipe(Effect.catchTag("Rejected", () => Effect.succeed(null)))
    if (p._tag === "Schedule" && done?._tag === "Appended") scheduled += 1
    // Asked while unanswered; once per reminder, whichever plan or retry asks (the reply's id is the reminder's).
    if (p._tag === "AskWhen" && done?._tag === "Appended" && done.state._tag === "Known" && done.state.status === "asking") {
      yield* Replies.queue({
        replyId: ReplyId.make(`reminder-time:${p.reminderId}`),
        user,
        provider: state.provider,
        chat: state.chat,
        text: askTimeText(p.quote, p.why),
        buttons: askTimeButtons(p.reminderId),
        questionId: null
      })
    }
  }
  const untaken = untakenText(proposals)
  if (untaken !== null) {
    yield* Replies.queue({
      replyId: ReplyId.make(`reminders:${planId}`),
      user,
      provider: state.provider,
      chat: state.chat,
      text: untaken,
      buttons: [],
      questionId: null
    })
  }
  if (produced.supersedes.length > 0) {
    // Every live plan's reminders (a promoted replay's chunks are applied together), so none a sibling sets is taken back.
    const live = new Set(events.flatMap(({ event }) =>
      event._tag === "PlanProduced" && state.appliedPlans.includes(event.planId)
        ? proposedReminders(remindersOf(event.plan), sources, zone).flatMap((p) => (p._tag === "NotAQuote" ? [] : [p.reminderId]))
        : []
    ))
    yield* Replanned.retire({ planId, sessionId, user, provider: state.provider, chat: state.chat, live, livePlans: new Set(state.appliedPlans) })
  }
  yield* record(planId, sessionId, user, proposals)
  return scheduled
})

/** Take what applied plans still owe, a page at a time. */
export const pass = Effect.gen(function*() {
  const book = yield* ReminderBook
  let taken = 0
  for (const owed of yield* book.owed(100)) {
    taken += yield* takePlan(owed.planId, owed.sessionId).pipe(
      Effect.catchAllCause((cause) => Effect.as(Effect.logError("taking a plan's reminders failed", cause).pipe(Effect.annotateLogs({ planId: owed.planId })), 0))
    )
  }
  return taken
})

/** Take plans' reminders as plans are applied (and every minute, the safety net of a missed wake-up). */
export const run = Effect.flatMap(Wakeups, (wakeups) => wakeups.loop(["PlanApplied"], "1 minute", pass))

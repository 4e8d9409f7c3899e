/** One reminder's stream: scheduled once, delivered once each time it falls due, acted on only by its user, final once done or cancelled. */
import { at, user } from "@verbatim/testkit/Given"
import { DeciderSpec } from "@verbatim/testkit/DeciderSpec"
import { describe, it } from "@effect/vitest"
import { MessageId, PlanId, ReminderId, SessionId, UserId } from "../../src/Ids.js"
import { ReminderCommand, reminderDecider } from "../../src/Reminders/Decide.js"
import { ZoneCommand, zoneDecider } from "../../src/Reminders/Zone.js"
import { rejected } from "../../src/Session/Commands.js"

const reminders = DeciderSpec.for(reminderDecider)
const reminderId = ReminderId.make("telegram:42#0-48")
const due = { dueAt: at(3_600), zone: "Europe/Lisbon", local: "2026-01-01T01:00" }
const later = { dueAt: at(7_200), zone: "Europe/Lisbon", local: "2026-01-01T02:00" }
const scheduled = {
  reminderId,
  user,
  sessionId: SessionId.make("s1"),
  planId: PlanId.make("p1"),
  messageId: MessageId.make("telegram:42"),
  quote: "Remind me to ask him about the sublet on Friday.",
  start: 0,
  end: 48,
  noteId: null,
  due
}
const given = { _tag: "ReminderScheduled", ...scheduled } as const
const delivered = { _tag: "ReminderDelivered", reminderId, deliveredAt: at(3_600), late: false } as const
const stranger = UserId.make("telegram:999")

describe("the reminder decider", () => {
  it("schedules a reminder once: a later plan that finds the same words leaves it as it stands", () => {
    reminders.given([]).when(ReminderCommand.Schedule({ scheduled })).then([given])
    reminders.given([given, { _tag: "ReminderDone", reminderId, doneAt: at(4_000) }]).when(ReminderCommand.Schedule({ scheduled }))
      .thenRejects(rejected("already-recorded", "the reminder is already done"))
  })

  const { due: _due, ...words } = scheduled
  const askedFields = { ...words, zone: "Europe/Lisbon", proposed: "someday", why: "unreadable", askedAt: at(5) } as const

  it("asks the time once: asked again while unanswered it adds nothing; a reminder with a time is not asked about", () => {
    reminders.given([]).when(ReminderCommand.AskTime({ asked: askedFields })).then([{ _tag: "ReminderTimeAsked", ...askedFields }])
    reminders.given([{ _tag: "ReminderTimeAsked", ...askedFields }]).when(ReminderCommand.AskTime({ asked: askedFields })).then([])
    reminders.given([given]).when(ReminderCommand.AskTime({ asked: askedFields }))
      .thenRejects(rejected("already-recorded", "the reminder is already scheduled"))
  })

  it("is never delivered while its time is asked; a time of its user's sets it, and no reminder cancels it", () => {
    const waiting = { _tag: "ReminderTimeAsked", ...askedFields } as const
    reminders.given([waiting]).when(ReminderCommand.Deliver({ now: at(99_999) })).thenRejects(rejected("already-recorded", "the reminder is asking"))
    reminders.given([waiting]).when(ReminderCommand.Reschedule({ by: stranger, now: at(10), due: later }))
      .thenRejects(rejected("not-yours", "the reminder is another user's"))
    const set = { _tag: "ReminderRescheduled", reminderId, rescheduledAt: at(10), due: later } as const
    reminders.given([waiting]).when(ReminderCommand.Reschedule({ by: user, now: at(10), due: later })).then([set])
    reminders.given([waiting, set]).when(ReminderCommand.Deliver({ now: at(7_200) }))
      .then([{ _tag: "ReminderDelivered", reminderId, deliveredAt: at(7_200), late: false }])
    reminders.given([waiting]).when(ReminderCommand.Cancel({ by: user, now: at(10), reason: "user" }))
      .then([{ _tag: "ReminderCancelled", reminderId, cancelledAt: at(10), reason: "user" }])
  })

  it("is taken back by a promoted replay only as the plan left it: one its user acted on stays", () => {
    const replanned = { _tag: "ReminderCancelled", reminderId, cancelledAt: at(20), reason: "replanned" } as const
    reminders.given([given]).when(ReminderCommand.Cancel({ by: user, now: at(20), reason: "replanned" })).then([replanned])
    const waiting = { _tag: "ReminderTimeAsked", ...askedFields } as const
    reminders.given([waiting]).when(ReminderCommand.Cancel({ by: user, now: at(20), reason: "replanned" })).then([replanned])
    for (const acted of [
      { _tag: "ReminderSnoozed", reminderId, snoozedAt: at(10), due: later },
      { _tag: "ReminderRescheduled", reminderId, rescheduledAt: at(10), due: later }
    ] as const) {
      reminders.given([given, acted]).when(ReminderCommand.Cancel({ by: user, now: at(20), reason: "replanned" }))
        .thenRejects(rejected("unchanged", "the user has acted on the reminder"))
    }
  })

  it("delivers it once it is due, once, and says when it is late", () => {
    reminders.given([given]).when(ReminderCommand.Deliver({ now: at(3_599) })).thenRejects(rejected("not-due", "the reminder is not due yet"))
    reminders.given([given]).when(ReminderCommand.Deliver({ now: at(3_600) })).then([delivered])
    reminders.given([given]).when(ReminderCommand.Deliver({ now: at(3_600 + 300) })).then([{ ...delivered, deliveredAt: at(3_900) }])
    reminders.given([given]).when(ReminderCommand.Deliver({ now: at(3_600 + 301) })).then([{ ...delivered, deliveredAt: at(3_901), late: true }])
    reminders.given([given, delivered]).when(ReminderCommand.Deliver({ now: at(3_700) }))
      .thenRejects(rejected("already-recorded", "the reminder is delivered"))
    reminders.given([]).when(ReminderCommand.Deliver({ now: at(3_700) })).thenRejects(rejected("not-found", "no such reminder"))
  })

  it("delivers a snoozed reminder again when it falls due again", () => {
    const snoozed = { _tag: "ReminderSnoozed", reminderId, snoozedAt: at(3_700), due: later } as const
    reminders.given([given, delivered]).when(ReminderCommand.Snooze({ by: user, now: at(3_700), due: later })).then([snoozed])
    reminders.given([given, delivered, snoozed]).when(ReminderCommand.Deliver({ now: at(7_000) })).thenRejects(rejected("not-due", "the reminder is not due yet"))
    reminders.given([given, delivered, snoozed]).when(ReminderCommand.Deliver({ now: at(7_200) }))
      .then([{ _tag: "ReminderDelivered", reminderId, deliveredAt: at(7_200), late: false }])
  })

  it("takes done, snooze, reschedule and cancel from its own user only", () => {
    reminders.given([given]).when(ReminderCommand.Done({ by: stranger, now: at(10) })).thenRejects(rejected("not-yours", "the reminder is another user's"))
    reminders.given([given]).when(ReminderCommand.Cancel({ by: stranger, now: at(10), reason: "user" }))
      .thenRejects(rejected("not-yours", "the reminder is another user's"))
    reminders.given([given]).when(ReminderCommand.Done({ by: user, now: at(10) })).then([{ _tag: "ReminderDone", reminderId, doneAt: at(10) }])
    reminders.given([given]).when(ReminderCommand.Reschedule({ by: user, now: at(10), due: later }))
      .then([{ _tag: "ReminderRescheduled", reminderId, rescheduledAt: at(10), due: later }])
    reminders.given([given]).when(ReminderCommand.Cancel({ by: user, now: at(10), reason: "quote-edited-away" }))
      .then([{ _tag: "ReminderCancelled", reminderId, cancelledAt: at(10), reason: "quote-edited-away" }])
  })

  it("refuses a new time that has already passed", () => {
    reminders.given([given, delivered]).when(ReminderCommand.Snooze({ by: user, now: at(7_200), due: later }))
      .thenRejects(rejected("invalid", "the new time has already passed"))
    reminders.given([given]).when(ReminderCommand.Reschedule({ by: user, now: at(9_000), due: later }))
      .thenRejects(rejected("invalid", "the new time has already passed"))
  })

  it("stays done or cancelled", () => {
    const done = { _tag: "ReminderDone", reminderId, doneAt: at(10) } as const
    const cancelled = { _tag: "ReminderCancelled", reminderId, cancelledAt: at(10), reason: "user" } as const
    reminders.given([given, done]).when(ReminderCommand.Done({ by: user, now: at(11) })).thenRejects(rejected("unchanged", "the reminder is already done"))
    reminders.given([given, done]).when(ReminderCommand.Deliver({ now: at(3_600) })).thenRejects(rejected("already-recorded", "the reminder is done"))
    reminders.given([given, cancelled]).when(ReminderCommand.Snooze({ by: user, now: at(11), due: later }))
      .thenRejects(rejected("withdrawn", "the reminder was cancelled"))
    reminders.given([given, cancelled]).when(ReminderCommand.Deliver({ now: at(3_600) })).thenRejects(rejected("already-recorded", "the reminder is cancelled"))
  })
})

describe("the zone decider", () => {
  const zones = DeciderSpec.for(zoneDecider)
  const set = (zone: string, seconds: number) => ({ _tag: "TimeZoneSet", user, zone, setAt: at(seconds) }) as const

  it("sets a zone by the name Intl spells, refuses a name it does not know, and calls the same zone no change", () => {
    zones.given([]).when(ZoneCommand.Set({ user, name: "europe/lisbon", now: at(1) })).then([set("Europe/Lisbon", 1)])
    zones.given([set("Europe/Lisbon", 1)]).when(ZoneCommand.Set({ user, name: "Europe/Lisbon", now: at(2) }))
      .thenRejects(rejected("unchanged", "the time zone is Europe/Lisbon already"))
    zones.given([set("Europe/Lisbon", 1)]).when(ZoneCommand.Set({ user, name: "UTC", now: at(3) })).then([set("UTC", 3)])
    zones.given([]).when(ZoneCommand.Set({ user, name: "Mars/Olympus", now: at(4) })).thenRejects(rejected("invalid", "\"Mars/Olympus\" is not a time zone"))
  })
})

describe("a reminder held for WhatsApp's window", () => {
  const held = { _tag: "ReminderHeld", reminderId, heldAt: at(3_600), reason: "whatsapp-window" } as const

  it("is held only once due, and only once; then delivered (late) when the user writes, once", () => {
    reminders.given([given]).when(ReminderCommand.Hold({ now: at(3_599) })).thenRejects(rejected("not-due", "the reminder is not due yet"))
    reminders.given([given]).when(ReminderCommand.Hold({ now: at(3_600) })).then([held])
    reminders.given([given, held]).when(ReminderCommand.Hold({ now: at(3_700) })).thenRejects(rejected("already-recorded", "the reminder is held"))
    reminders.given([given, held]).when(ReminderCommand.Deliver({ now: at(90_000) }))
      .then([{ _tag: "ReminderDelivered", reminderId, deliveredAt: at(90_000), late: true }])
    reminders.given([given, held, { _tag: "ReminderDelivered", reminderId, deliveredAt: at(90_000), late: true }])
      .when(ReminderCommand.Deliver({ now: at(90_001) })).thenRejects(rejected("already-recorded", "the reminder is delivered"))
  })

  it("can be marked done or cancelled while held", () => {
    reminders.given([given, held]).when(ReminderCommand.Done({ by: user, now: at(4_000) })).then([{ _tag: "ReminderDone", reminderId, doneAt: at(4_000) }])
    reminders.given([given, held]).when(ReminderCommand.Cancel({ by: user, now: at(4_000), reason: "user" }))
      .then([{ _tag: "ReminderCancelled", reminderId, cancelledAt: at(4_000), reason: "user" }])
  })
})

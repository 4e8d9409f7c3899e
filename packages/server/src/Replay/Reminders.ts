/**
 * A replayed session's reminders: the live plans' and the candidate's, both checked against the
 * session's messages in the user's zone as the reminders job checks them (so the same words of
 * the same message name the same reminder on both sides), compared, and labelled by what the
 * user did with each live reminder on its own stream.
 */
import { diffReminders, type ReminderDiff, reminderViews } from "@verbatim/domain/Eval/ReminderDiff"
import { type ReminderLabel, reminderLabel } from "@verbatim/domain/Eval/ReminderLabels"
import type { ReminderId, UserId } from "@verbatim/domain/Ids"
import { type InboundMessage, sentAtOf } from "@verbatim/domain/Message"
import { ReminderEvent } from "@verbatim/domain/Reminders/Events"
import { proposedReminders, remindersOf } from "@verbatim/domain/Reminders/FromPlan"
import { reminderStream } from "@verbatim/domain/Streams"
import { EventStore } from "@verbatim/projections/EventStore"
import { Effect, Schema } from "effect"
import { TimeZones } from "../TimeZones.js"

const isReminderEvent = Schema.is(ReminderEvent)

/** The user's zone, the reminders job reads. */
export const zoneOf = (user: UserId) => Effect.flatMap(TimeZones, (zones) => zones.zoneOf(user))

/** The live plans' reminders (plans as recorded) against the candidate's, labelled by the user's handling. */
export const compareReminders = Effect.fn("Replay.compareReminders")(function*(
  zone: string,
  messages: ReadonlyArray<InboundMessage>,
  livePlans: ReadonlyArray<unknown>,
  candidatePlans: ReadonlyArray<unknown>
) {
  const sources = messages.map((m) => ({ seq: m.seq, messageId: m.id, text: m.text, sentAt: sentAtOf(m) }))
  const views = (plans: ReadonlyArray<unknown>) => reminderViews(proposedReminders(plans.flatMap(remindersOf), sources, zone))
  const live = views(livePlans)
  const store = yield* EventStore
  const labels = new Map<ReminderId, ReminderLabel>()
  for (const { reminderId } of live) {
    const events = yield* store.readStream(reminderStream(reminderId))
    const label = reminderLabel(events.flatMap(({ event, recordedAt }) =>
      isReminderEvent(event) ? [{ event, recordedAt }] : []
    ))
    if (label !== null) labels.set(reminderId, label)
  }
  return diffReminders(live, views(candidatePlans), labels) satisfies ReminderDiff
})

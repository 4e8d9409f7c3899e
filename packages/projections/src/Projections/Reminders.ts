/**
 * The reminders projection; owns `reminders`: each reminder with its words, when it falls due
 * (the instant in milliseconds, the zone, the clock reading) and where it stands. Reminders still
 * to deliver are indexed by due instant alone, so finding what is due reads only what is due. A
 * reminder whose time is asked (`asking`) has none: its `due_at` is the moment it was asked (so
 * the lists show it first) and its `due_local` is empty until the user gives a time.
 */
import { absurd } from "effect"
import type { EventOf, Projection } from "./Projection.js"
import { patch } from "./Projection.js"

type Handled = "ReminderScheduled" | "ReminderTimeAsked" | "ReminderHeld" | "ReminderDelivered" | "ReminderDone" | "ReminderSnoozed" | "ReminderRescheduled" | "ReminderCancelled"

const dueColumns = (due: EventOf<"ReminderScheduled">["due"]) => ({ due_at: Date.parse(due.dueAt), zone: due.zone, due_local: due.local })

export const Reminders: Projection<Handled> = {
  name: "reminders",
  canHandle: ["ReminderScheduled", "ReminderTimeAsked", "ReminderHeld", "ReminderDelivered", "ReminderDone", "ReminderSnoozed", "ReminderRescheduled", "ReminderCancelled"],
  wants(event, _position, keys) {
    keys.add("reminders", "reminder_id", event.reminderId)
  },
  evolve(batch, { event, position }) {
    switch (event._tag) {
      case "ReminderScheduled":
      case "ReminderTimeAsked":
        if (!batch.has("reminders", event.reminderId)) {
          batch.put("reminders", {
            reminder_id: event.reminderId,
            user_id: event.user,
            session_id: event.sessionId,
            plan_id: event.planId,
            message_id: event.messageId,
            quote: event.quote,
            quote_start: event.start,
            quote_end: event.end,
            note_id: event.noteId,
            ...(event._tag === "ReminderScheduled"
              ? { ...dueColumns(event.due), status: "scheduled" }
              : { due_at: Date.parse(event.askedAt), zone: event.zone, due_local: "", status: "asking" }),
            delivered_at: null,
            held_at: null,
            late: 0,
            finished_at: null,
            position
          })
        }
        return
      case "ReminderHeld":
        return patch(batch, "reminders", event.reminderId, { status: "held", held_at: event.heldAt })
      case "ReminderDelivered":
        return patch(batch, "reminders", event.reminderId, { status: "delivered", delivered_at: event.deliveredAt, late: event.late ? 1 : 0 })
      case "ReminderDone":
        return patch(batch, "reminders", event.reminderId, { status: "done", finished_at: event.doneAt })
      case "ReminderSnoozed":
      case "ReminderRescheduled":
        return patch(batch, "reminders", event.reminderId, { status: "scheduled", ...dueColumns(event.due) })
      case "ReminderCancelled":
        return patch(batch, "reminders", event.reminderId, { status: "cancelled", finished_at: event.cancelledAt })
      default:
        return absurd(event)
    }
  }
}

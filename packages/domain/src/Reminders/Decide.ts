/**
 * The reminder decider: one reminder's stream, from the plan that found its words to the user's
 * last word on it. It is delivered once for each time it falls due; a user acts only on their own
 * reminder; once done or cancelled it stays so. It runs on the generic runner like every stream,
 * and is not a branch of the session decider: a session's plan only proposes reminders.
 */
import { Data, DateTime, Duration, Either } from "effect"
import type { Decider } from "../Decider.js"
import type { ReminderId, UserId } from "../Ids.js"
import { type Rejected, rejected } from "../Session/Commands.js"
import type { Due, ReminderCancelled, ReminderEvent, ReminderScheduled, ReminderStatus, ReminderTimeAsked } from "./Events.js"

export type { ReminderEvent } from "./Events.js"

export type { ReminderStatus } from "./Events.js"

export type ReminderState =
  | { readonly _tag: "None" }
  | {
    readonly _tag: "Known"
    readonly reminderId: ReminderId
    readonly user: UserId
    readonly status: ReminderStatus
    /** When it falls due; null while its time is asked. */
    readonly due: Due | null
    /** The user did something to it (done, snoozed, rescheduled or cancelled it). */
    readonly userActed: boolean
  }

/** How long after its due time a delivery is called late ("due at 09:00, sent late"). */
export const lateAfter = Duration.minutes(5)

export type ReminderCommand = Data.TaggedEnum<{
  Schedule: { readonly scheduled: Omit<typeof ReminderScheduled.Type, "_tag"> }
  AskTime: { readonly asked: Omit<typeof ReminderTimeAsked.Type, "_tag"> }
  Deliver: { readonly now: DateTime.Utc }
  Hold: { readonly now: DateTime.Utc }
  Done: { readonly by: UserId; readonly now: DateTime.Utc }
  Snooze: { readonly by: UserId; readonly now: DateTime.Utc; readonly due: Due }
  Reschedule: { readonly by: UserId; readonly now: DateTime.Utc; readonly due: Due }
  Cancel: { readonly by: UserId; readonly now: DateTime.Utc; readonly reason: typeof ReminderCancelled.Type["reason"] }
}>
export const ReminderCommand = Data.taggedEnum<ReminderCommand>()

export const initialState: ReminderState = { _tag: "None" }

export const evolve = (state: ReminderState, event: ReminderEvent): ReminderState => {
  if (event._tag === "ReminderScheduled") {
    return { _tag: "Known", reminderId: event.reminderId, user: event.user, status: "scheduled", due: event.due, userActed: false }
  }
  if (event._tag === "ReminderTimeAsked") {
    return { _tag: "Known", reminderId: event.reminderId, user: event.user, status: "asking", due: null, userActed: false }
  }
  if (state._tag === "None") return state
  switch (event._tag) {
    case "ReminderHeld":
      return { ...state, status: "held" }
    case "ReminderDelivered":
      return { ...state, status: "delivered" }
    case "ReminderDone":
      return { ...state, status: "done", userActed: true }
    case "ReminderSnoozed":
    case "ReminderRescheduled":
      return { ...state, status: "scheduled", due: event.due, userActed: true }
    case "ReminderCancelled":
      return { ...state, status: "cancelled", userActed: event.reason === "user" || state.userActed }
  }
}

type Known = Extract<ReminderState, { _tag: "Known" }>

/** The reminder, if it exists, is this user's and is not finished; otherwise why not. */
const active = (state: ReminderState, by: UserId): Either.Either<Known, Rejected> => {
  if (state._tag === "None") return Either.left(rejected("not-found", "no such reminder"))
  if (state.user !== by) return Either.left(rejected("not-yours", "the reminder is another user's"))
  if (state.status === "done") return Either.left(rejected("unchanged", "the reminder is already done"))
  if (state.status === "cancelled") return Either.left(rejected("withdrawn", "the reminder was cancelled"))
  return Either.right(state)
}

/** A new due time must lie after the moment it is set. */
const later = (due: Due, now: DateTime.Utc): Either.Either<Due, Rejected> =>
  DateTime.greaterThan(due.dueAt, now) ? Either.right(due) : Either.left(rejected("invalid", "the new time has already passed"))

export const decide = (state: ReminderState, command: ReminderCommand): Either.Either<ReadonlyArray<ReminderEvent>, Rejected> => {
  switch (command._tag) {
    case "Schedule":
      // A plan that finds the same words again names the same reminder: what the user made of it stays.
      return state._tag === "Known"
        ? Either.left(rejected("already-recorded", `the reminder is already ${state.status}`))
        : Either.right([{ _tag: "ReminderScheduled", ...command.scheduled }])
    case "AskTime":
      // Asked again while unanswered (a crash before the question was sent, a promoted replay): the question stands.
      if (state._tag === "None") return Either.right([{ _tag: "ReminderTimeAsked", ...command.asked }])
      return state.status === "asking" ? Either.right([]) : Either.left(rejected("already-recorded", `the reminder is already ${state.status}`))
    case "Hold":
    case "Deliver": {
      if (state._tag === "None") return Either.left(rejected("not-found", "no such reminder"))
      // A held reminder is due: it goes out (late) when the user writes again.
      const deliverable = state.status === "scheduled" || (state.status === "held" && command._tag === "Deliver")
      if (!deliverable || state.due === null) return Either.left(rejected("already-recorded", `the reminder is ${state.status}`))
      if (DateTime.lessThan(command.now, state.due.dueAt)) return Either.left(rejected("not-due", "the reminder is not due yet"))
      if (command._tag === "Hold") return Either.right([{ _tag: "ReminderHeld", reminderId: state.reminderId, heldAt: command.now, reason: "whatsapp-window" }])
      const late = DateTime.greaterThan(command.now, DateTime.addDuration(state.due.dueAt, lateAfter))
      return Either.right([{ _tag: "ReminderDelivered", reminderId: state.reminderId, deliveredAt: command.now, late }])
    }
    case "Done":
      return Either.map(active(state, command.by), (known) => [{ _tag: "ReminderDone", reminderId: known.reminderId, doneAt: command.now }])
    case "Snooze":
      return Either.flatMap(active(state, command.by), (known) =>
        Either.map(later(command.due, command.now), (due) => [{ _tag: "ReminderSnoozed", reminderId: known.reminderId, snoozedAt: command.now, due }]))
    case "Reschedule":
      return Either.flatMap(active(state, command.by), (known) =>
        Either.map(later(command.due, command.now), (due) => [{ _tag: "ReminderRescheduled", reminderId: known.reminderId, rescheduledAt: command.now, due }]))
    case "Cancel":
      // A promoted replay takes back only what the user left as the plan made it.
      if (command.reason === "replanned" && state._tag === "Known" && state.userActed) {
        return Either.left(rejected("unchanged", "the user has acted on the reminder"))
      }
      return Either.map(active(state, command.by), (known) => [
        { _tag: "ReminderCancelled", reminderId: known.reminderId, cancelledAt: command.now, reason: command.reason }
      ])
  }
}

/** The reminder decider as a value, for the runner and the specifications. */
export const reminderDecider: Decider<ReminderState, ReminderCommand, ReminderEvent, Rejected> = { decide, evolve, initialState }

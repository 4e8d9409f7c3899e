/**
 * The reminders' endpoints: a user's reminders by state, and done, snooze, reschedule and cancel,
 * each a command through the reminder decider and an event in the log. A change a reminder can
 * no longer take (done already, cancelled) is a 409; a time already past a 400.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authorization, BadRequest, changeEndpoint } from "./ApiErrors.js"
import { MessageId, NoteId, ReminderId, SessionId, UserId } from "./Ids.js"
import { withheldField } from "./OperatorReads/Mode.js"
import { ReminderStatus } from "./Reminders/Events.js"

/** Where a reminder stands. */
export const ReminderState = ReminderStatus

/** One reminder: its words and where they are, when it falls due (instant, zone, clock reading), and where it stands. */
export const Reminder = Schema.Struct({
  id: ReminderId,
  user: UserId,
  sessionId: SessionId,
  messageId: MessageId,
  noteId: Schema.NullOr(NoteId),
  quote: Schema.String,
  start: Schema.Number,
  end: Schema.Number,
  /** When it falls due; null while its time is asked (`asking`). */
  dueAt: Schema.NullOr(Schema.DateTimeUtc),
  zone: Schema.String,
  /** The clock reading it falls due at (`YYYY-MM-DDTHH:MM`); null while its time is asked. */
  dueLocal: Schema.NullOr(Schema.String),
  status: ReminderState,
  late: Schema.Boolean,
  ...withheldField
})
export type Reminder = typeof Reminder.Type

export const RemindersList = Schema.Struct({ items: Schema.Array(Reminder) })

const ReminderPath = Schema.Struct({ id: ReminderId })

export const SnoozePayload = Schema.Struct({ until: Schema.Literal("hour", "morning") })
  .annotations({ message: () => "must be a JSON object {\"until\": \"hour\"} or {\"until\": \"morning\"}" })

export const ReschedulePayload = Schema.Struct({
  due: Schema.String.pipe(Schema.pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, { message: () => "must be YYYY-MM-DDTHH:MM" }))
}).annotations({ message: () => "must be a JSON object {\"due\": \"YYYY-MM-DDTHH:MM\"}, a time on the reminder's clock" })

/** A change to one reminder: answered with the reminder as it now stands. */
const change = <Name extends string, Path extends `/${string}`>(name: Name, path: Path, summary: string, description: string) =>
  changeEndpoint(name, path, summary, description).setPath(ReminderPath).addSuccess(Reminder)

export class RemindersGroup extends HttpApiGroup.make("reminders")
  .add(
    HttpApiEndpoint.get("reminders", "/reminders")
      .annotate(OpenApi.Summary, "A user's reminders")
      .annotate(OpenApi.Description, "A user's reminders, soonest due first (at most 200); `status` narrows to those in one state. Another user's are listed without their words under VERBATIM_OPERATOR_READS=none (`withheld` says why).")
      .setUrlParams(Schema.Struct({ user: UserId, status: Schema.optionalWith(ReminderState, { exact: true }) }))
      .addSuccess(RemindersList)
  )
  .add(change("reminderDone", "/reminders/:id/done", "Mark a reminder done", "Marks it done: it is not delivered again."))
  .add(
    change("snoozeReminder", "/reminders/:id/snooze", "Snooze a reminder", "Puts it off an hour (`hour`) or to 09:00 tomorrow on its own clock (`morning`).")
      .setPayload(SnoozePayload)
  )
  .add(
    change("rescheduleReminder", "/reminders/:id/reschedule", "Reschedule a reminder", "Gives it a new time on its own clock, which must lie ahead.")
      .setPayload(ReschedulePayload)
  )
  .add(change("cancelReminder", "/reminders/:id/cancel", "Cancel a reminder", "Cancels it: it is not delivered, and stays in the log."))
  .addError(BadRequest)
  .middleware(Authorization)
  .prefix("/api")
{}

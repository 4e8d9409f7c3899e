/** A session's accounting as the API returns it: where every message went, and every reminder its plans proposed. */
import { Schema } from "effect"
import { MessageId, NoteId, PlanId, QuestionId, ReminderId, SessionId, UserId } from "./Ids.js"
import { withheldField } from "./OperatorReads/Mode.js"
import { ReminderStatus } from "./Reminders/Events.js"

/** Where (part of) a message went. A message may be in a note and have a directive cut from it. */
export const Disposition = Schema.Union(
  Schema.TaggedStruct("InNote", { noteId: NoteId }),
  /** In a note its user discarded: still in the log, restorable. */
  Schema.TaggedStruct("Discarded", { noteId: NoteId }),
  Schema.TaggedStruct("InQuestion", { questionId: QuestionId }),
  /** Its words erased at its user's request (a forgetting): in no note or question, and its place kept. */
  Schema.TaggedStruct("Erased", { erasedAt: Schema.String }),
  Schema.TaggedStruct("Instruction", { kind: Schema.Literal("message", "directive"), text: Schema.String })
)
export type Disposition = typeof Disposition.Type

/**
 * Each reminder the session's live plans proposed and the one outcome it came to (`RemindersTaken`):
 * scheduled, words not in the message, or its time asked; with the reminder's state now, when there is one.
 */
export const ReminderAccounting = Schema.Struct({
  planId: PlanId,
  seq: Schema.Number,
  quote: Schema.String,
  outcome: Schema.Literal("scheduled", "not-a-quote", "ask-when"),
  detail: Schema.NullOr(Schema.String),
  reminderId: Schema.NullOr(ReminderId),
  status: Schema.NullOr(ReminderStatus)
})
export type ReminderAccounting = typeof ReminderAccounting.Type

/** Every message of a session and where it went (an empty list: not planned yet), and what its plans' reminders came to. */
export const SessionAccounting = Schema.Struct({
  sessionId: SessionId,
  user: UserId,
  status: Schema.Literal("open", "closed", "planned", "failed"),
  messages: Schema.Array(Schema.Struct({
    messageId: MessageId,
    seq: Schema.Number,
    dispositions: Schema.Array(Disposition)
  })),
  reminders: Schema.Array(ReminderAccounting),
  ...withheldField
})
export type SessionAccounting = typeof SessionAccounting.Type

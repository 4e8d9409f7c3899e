/**
 * Every fact the service records. Events are immutable; bodies of notes are never stored,
 * they are derived from message text plus recorded directives. Each event type has a schema
 * version; older payloads are upcast on read (see `Upcast.ts`), never rewritten.
 */
import { Schema } from "effect"
import { Link } from "./Attachment.js"
import { NoteDiscarded, NoteMoved, NoteRestored, NoteSplit, PeopleMerged, PeopleUnmerged, PersonRenamed } from "./CurationEvents.js"
import { Candidate, DirectiveCut, Owner, PlanWarning, QuestionReason } from "./Decision.js"
import { Json } from "./Json.js"
import { MessageId, NoteId, PersonId, PlanId, Provider, QuestionId, SessionId, UserId } from "./Ids.js"
import { MediaFailed, MediaFetched, MediaTranscribed } from "./MediaEvents.js"
import { InboundMessage } from "./Message.js"
import { ReplyFailed, ReplyQueued, ReplySent } from "./ReplyEvents.js"
import { AskEvent } from "./Ask/Events.js"
import { TokenUsage } from "./TokenUsage.js"
import { ReminderEvent, RemindersTaken, TimeZoneSet } from "./Reminders/Events.js"
import { WebSignedOut, WebSignIn } from "./WebEvents.js"
import { OperatorRead } from "./OperatorReads/Events.js"
import { ForgetEvent } from "./Forget/Events.js"

export { NoteDiscarded, NoteMoved, NoteRestored, NoteSplit, PeopleMerged, PeopleUnmerged, PersonRenamed }
export * from "./Ask/Events.js"
export * from "./Forget/Events.js"
export * from "./Reminders/Events.js"
export { MediaFailed, MediaFetched, MediaTranscribed, OperatorRead, ReplyFailed, ReplyQueued, ReplySent, WebSignedOut, WebSignIn }

export { TokenUsage } from "./TokenUsage.js"

export const MessageReceived = Schema.TaggedStruct("MessageReceived", { message: InboundMessage })

export const MessageEdited = Schema.TaggedStruct("MessageEdited", {
  messageId: MessageId,
  sessionId: SessionId,
  text: Schema.String,
  /** The URLs behind spans of the edited text (see `Link`). */
  links: Schema.Array(Link),
  editedAt: Schema.DateTimeUtc
})

export const SessionOpened = Schema.TaggedStruct("SessionOpened", {
  sessionId: SessionId,
  user: UserId,
  provider: Provider,
  chat: Schema.String,
  openedAt: Schema.DateTimeUtc
})

export const SessionClosed = Schema.TaggedStruct("SessionClosed", {
  sessionId: SessionId,
  reason: Schema.Literal("idle", "command", "import"),
  messageCount: Schema.Finite,
  closedAt: Schema.DateTimeUtc
})

/** A model call's result, recorded raw so it can be re-applied and audited. */
export const PlanProduced = Schema.TaggedStruct("PlanProduced", {
  planId: PlanId,
  sessionId: SessionId,
  /** The tool input exactly as the model returned it. */
  plan: Json,
  promptVersion: Schema.String,
  promptHash: Schema.String,
  model: Schema.String,
  usage: TokenUsage,
  /** Seqs covered by this plan (a session too large for one request is planned in chunks). */
  chunk: Schema.Struct({ fromSeq: Schema.Finite, toSeq: Schema.Finite }),
  /** Contacts left out of the prompt and the message shown cut, if any. */
  truncation: Schema.Struct({
    contactsDropped: Schema.Finite,
    cutSeq: Schema.NullOr(Schema.Finite)
  }),
  /**
   * The live plans this one replaces (a promoted replay): every applied plan of the session, on
   * the first chunk's plan, so the old chunks go whatever the new chunking. Empty otherwise.
   */
  supersedes: Schema.Array(PlanId),
  /** How long the model call took, in milliseconds; null for plans recorded before it was kept (v2 and older). */
  durationMs: Schema.NullOr(Schema.Finite)
})

/** Why planning failed: the model call's failure reasons (a request that cannot be built counts as invalid). */
export const PlanFailureReason = Schema.Literal(
  "rate-limited",
  "overloaded",
  "server",
  "timeout",
  "truncated",
  "refused",
  "invalid-request",
  "auth",
  "decode",
  /** The store refused the plan's events: the plan could not be recorded. */
  "store",
  /** Planning the session stopped the process (out of memory, killed) three times in a row. */
  "crashed"
)
export type PlanFailureReason = typeof PlanFailureReason.Type

export const PlanFailed = Schema.TaggedStruct("PlanFailed", {
  sessionId: SessionId,
  reason: PlanFailureReason,
  attempt: Schema.Finite,
  detail: Schema.String
})

export const NoteRecorded = Schema.TaggedStruct("NoteRecorded", {
  noteId: NoteId,
  sessionId: SessionId,
  user: UserId,
  /** The plan that made it, or null when an answer to a question made it. */
  planId: Schema.NullOr(PlanId),
  /** The question whose answer made it (a confirmation). */
  questionId: Schema.NullOr(QuestionId),
  owner: Owner,
  personId: Schema.NullOr(PersonId),
  sources: Schema.Array(Schema.Struct({ messageId: MessageId, seq: Schema.Finite })),
  directives: Schema.Array(DirectiveCut),
  /** How many plan notes were merged to form this one (1 when none were). */
  mergedFrom: Schema.Finite
})

export const QuestionParked = Schema.TaggedStruct("QuestionParked", {
  questionId: QuestionId,
  sessionId: SessionId,
  user: UserId,
  planId: Schema.NullOr(PlanId),
  reason: QuestionReason,
  sources: Schema.Array(Schema.Struct({ messageId: MessageId, seq: Schema.Finite })),
  candidates: Schema.Array(Candidate)
})

export const Answer = Schema.Union(
  Schema.TaggedStruct("Person", { contactId: Schema.NullOr(Schema.String), name: Schema.String }),
  Schema.TaggedStruct("Unattached", {})
)
export type Answer = typeof Answer.Type

export const QuestionAnswered = Schema.TaggedStruct("QuestionAnswered", {
  questionId: QuestionId,
  sessionId: SessionId,
  answer: Answer,
  answeredAt: Schema.DateTimeUtc
})

/** A question no longer asked: its messages were filed by a later plan (a retry after a failure). */
export const QuestionWithdrawn = Schema.TaggedStruct("QuestionWithdrawn", {
  questionId: QuestionId,
  sessionId: SessionId,
  reason: Schema.Literal("replanned")
})

export const InstructionRecorded = Schema.TaggedStruct("InstructionRecorded", {
  sessionId: SessionId,
  planId: PlanId,
  messageId: MessageId,
  seq: Schema.Finite,
  /** A whole message addressed to the bot, or a directive cut from a note's message. */
  kind: Schema.Literal("message", "directive"),
  text: Schema.String
})

export const PlanApplied = Schema.TaggedStruct("PlanApplied", {
  planId: PlanId,
  sessionId: SessionId,
  noteIds: Schema.Array(NoteId),
  questionIds: Schema.Array(QuestionId),
  warnings: Schema.Array(PlanWarning)
})

export const PersonAdded = Schema.TaggedStruct("PersonAdded", {
  personId: PersonId,
  user: UserId,
  name: Schema.String
})

export const Event = Schema.Union(
  MessageReceived,
  MessageEdited,
  MediaFetched,
  MediaFailed,
  MediaTranscribed,
  SessionOpened,
  SessionClosed,
  PlanProduced,
  PlanFailed,
  NoteRecorded,
  QuestionParked,
  QuestionAnswered,
  QuestionWithdrawn,
  InstructionRecorded,
  PlanApplied,
  PersonAdded,
  NoteMoved,
  NoteSplit,
  NoteDiscarded,
  NoteRestored,
  PersonRenamed,
  PeopleMerged,
  PeopleUnmerged,
  ReplyQueued,
  ReplySent,
  ReplyFailed,
  WebSignIn,
  WebSignedOut,
  OperatorRead,
  ...ForgetEvent.members,
  ...ReminderEvent.members,
  RemindersTaken,
  TimeZoneSet,
  ...AskEvent.members
)
export type Event = typeof Event.Type
export type EventType = Event["_tag"]

/** The schema version each event type is written at now. */
import type { EventType } from "./Events.js"

/** Current schema version of each event type; bump it and add an upcaster when a payload changes. */
export const eventVersions: { readonly [K in EventType]: number } = {
  MessageReceived: 2,
  MessageEdited: 2,
  MediaFetched: 1,
  MediaFailed: 1,
  MediaTranscribed: 1,
  SessionOpened: 1,
  SessionClosed: 1,
  PlanProduced: 3,
  PlanFailed: 1,
  NoteRecorded: 1,
  QuestionParked: 1,
  QuestionAnswered: 1,
  QuestionWithdrawn: 1,
  InstructionRecorded: 1,
  PlanApplied: 1,
  PersonAdded: 1,
  NoteMoved: 1,
  NoteSplit: 1,
  NoteDiscarded: 1,
  NoteRestored: 1,
  PersonRenamed: 1,
  PeopleMerged: 1,
  ReplyQueued: 1,
  ReplySent: 1,
  ReplyFailed: 1,
  WebSignIn: 1,
  WebSignedOut: 1,
  ReminderScheduled: 1,
  ReminderDelivered: 1,
  ReminderDone: 1,
  ReminderSnoozed: 1,
  ReminderRescheduled: 1,
  ReminderCancelled: 1
}

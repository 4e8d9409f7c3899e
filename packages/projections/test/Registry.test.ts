/** Every event type reaches a projection, or is named as changing no read model: none is dropped unseen. */
import { describe, expect, it } from "@effect/vitest"
import { Event } from "@verbatim/domain/Events"
import { notProjected, projections, projectionsOf } from "@verbatim/projections/Projections/Registry"
import { SchemaAST } from "effect"

/** The tags of the `Event` union, read from its members' schemas (not a hand-kept list). */
const eventTags = Event.members.map((member) => {
  const tag = SchemaAST.getPropertySignatures(member.ast).find((p) => p.name === "_tag")
  if (tag === undefined || !SchemaAST.isLiteral(tag.type)) throw new Error(`an Event member has no literal _tag: ${String(member.ast)}`)
  return tag.type.literal as Event["_tag"]
})

describe("projection registry", () => {
  it("reads every tag of the Event union", () => {
    expect(eventTags).toEqual([
      "MessageReceived",
      "MessageEdited",
      "MediaFetched",
      "MediaFailed",
      "MediaTranscribed",
      "SessionOpened",
      "SessionClosed",
      "PlanProduced",
      "PlanFailed",
      "NoteRecorded",
      "QuestionParked",
      "QuestionAnswered",
      "QuestionWithdrawn",
      "InstructionRecorded",
      "PlanApplied",
      "PersonAdded",
      "NoteMoved",
      "NoteSplit",
      "NoteDiscarded",
      "NoteRestored",
      "PersonRenamed",
      "PeopleMerged",
      "PeopleUnmerged",
      "ReplyQueued",
      "ReplySent",
      "ReplyFailed",
      "WebSignIn",
      "WebSignedOut",
      "OperatorRead",
      "Forgotten",
      "MessagesErased",
      "PersonForgotten",
      "ReminderScheduled",
      "ReminderTimeAsked",
      "ReminderHeld",
      "ReminderDelivered",
      "ReminderDone",
      "ReminderSnoozed",
      "ReminderRescheduled",
      "ReminderCancelled",
      "RemindersTaken",
      "TimeZoneSet",
      "AskPosed",
      "AskAnswered",
      "AskFailed",
      "AskQuoteConfirmed"
    ])
  })

  it("hands every event type to a projection unless it is listed as not projected", () => {
    const ignored = eventTags.filter((tag) => projectionsOf(tag).length === 0 && !notProjected.includes(tag))
    const listedYetProjected = notProjected.filter((tag) => projectionsOf(tag).length > 0)
    expect({ ignored, listedYetProjected }).toEqual({ ignored: [], listedYetProjected: [] })
  })

  it("routes each event type to its read models, messages before the notes and instructions that read its text", () => {
    expect(Object.fromEntries(eventTags.map((tag) => [tag, projectionsOf(tag).map((p) => p.name)]))).toEqual({
      MessageReceived: ["messages"],
      MessageEdited: ["messages", "notes", "instructions"],
      MediaFetched: ["messages", "notes", "instructions"],
      MediaFailed: ["messages", "notes", "instructions"],
      MediaTranscribed: ["messages", "notes", "instructions"],
      SessionOpened: ["sessions"],
      SessionClosed: ["sessions"],
      PlanProduced: ["sessions", "plans", "notes", "questions", "instructions"],
      PlanFailed: ["sessions"],
      NoteRecorded: ["notes"],
      QuestionParked: ["questions"],
      QuestionAnswered: ["questions"],
      QuestionWithdrawn: ["questions"],
      InstructionRecorded: ["instructions"],
      PlanApplied: ["plans"],
      PersonAdded: ["people"],
      NoteMoved: ["note curation"],
      NoteSplit: ["note curation"],
      NoteDiscarded: ["note curation"],
      NoteRestored: ["note curation"],
      PersonRenamed: ["people", "note curation"],
      PeopleMerged: ["people", "note curation"],
      PeopleUnmerged: ["people", "note curation"],
      ReplyQueued: ["replies", "asks"],
      ReplySent: ["replies"],
      ReplyFailed: ["replies"],
      WebSignIn: [],
      WebSignedOut: [],
      OperatorRead: [],
      Forgotten: ["erasures"],
      MessagesErased: ["erasures"],
      PersonForgotten: ["erasures"],
      ReminderScheduled: ["reminders"],
      ReminderTimeAsked: ["reminders"],
      ReminderHeld: ["reminders"],
      ReminderDelivered: ["reminders"],
      ReminderDone: ["reminders"],
      ReminderSnoozed: ["reminders"],
      ReminderRescheduled: ["reminders"],
      ReminderCancelled: ["reminders"],
      RemindersTaken: ["plans"],
      TimeZoneSet: ["user zones"],
      AskPosed: ["asks"],
      AskAnswered: ["asks"],
      AskFailed: ["asks"],
      AskQuoteConfirmed: ["asks"]
    })
  })

  it("applies the read models in this order", () => {
    expect(projections.map((p) => p.name)).toEqual(["sessions", "messages", "plans", "notes", "questions", "instructions", "people", "note curation", "replies", "reminders", "user zones", "asks", "erasures"])
  })
})

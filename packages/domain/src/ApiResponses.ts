/** What the read API returns: people, notes with derived bodies, audits, questions, accounting, events. */
import { Schema } from "effect"
import { Candidate, DirectiveCut, Owner, QuestionReason, Segment } from "./Decision.js"
import { Answer, Event } from "./Events.js"
import { MessageId, NoteId, PersonId, PlanId, QuestionId, ReminderId, SessionId, UserId } from "./Ids.js"
import { AttachmentKind } from "./Attachment.js"
import { DerivedSource, PageSpan, Part, TranscriptSegment } from "./Media.js"
import { ReminderStatus } from "./Reminders/Events.js"
import { notTextIn } from "./Inbound/bodyShape.js"
import { withheldField } from "./OperatorReads/Mode.js"

/** One page of a list; pass `nextCursor` back as `cursor` for the next page (null: no more). */
export const Page = <S extends Schema.Schema.Any>(item: S) =>
  Schema.Struct({ items: Schema.Array(item), nextCursor: Schema.NullOr(Schema.String) })

/** A message a note or question was made from. */
export const SourceRef = Schema.Struct({ messageId: MessageId, seq: Schema.Number })
export type SourceRef = typeof SourceRef.Type

export const Person = Schema.Struct({
  id: PersonId,
  user: UserId,
  name: Schema.String,
  noteCount: Schema.Number,
  ...withheldField
})
export type Person = typeof Person.Type

export const PeoplePage = Page(Person)
export type PeoplePage = typeof PeoplePage.Type

/** A note with its body derived from the stored message text (bodies are never stored). */
export const Note = Schema.Struct({
  id: NoteId,
  user: UserId,
  sessionId: SessionId,
  owner: Owner,
  personId: Schema.NullOr(PersonId),
  body: Schema.String,
  sources: Schema.Array(SourceRef),
  recordedAt: Schema.DateTimeUtc,
  ...withheldField
})
export type Note = typeof Note.Type

export const NotesPage = Page(Note)
export type NotesPage = typeof NotesPage.Type

/** A stored attachment of a source: what to play or show beside the text read from it. */
export const SourceMedia = Schema.Struct({
  /** Its index in the message's attachments (`/media/<messageId>/<attachment>` serves it to its sender). */
  attachment: Schema.Number,
  kind: AttachmentKind,
  /** What its text was read as, when it has been read. */
  source: Schema.NullOr(DerivedSource),
  /** The transcript's stretches with their times in the recording. */
  segments: Schema.Array(TranscriptSegment),
  /** Where each page of a document lies in the text read from it. */
  pages: Schema.Array(PageSpan)
})
export type SourceMedia = typeof SourceMedia.Type

/** Everything needed to trace a note back to the exact characters it came from. */
export const NoteAudit = Schema.Struct({
  note: Note,
  /** The body as slices of messages and separators; slices, cuts and dropped whitespace tile each message. */
  segments: Schema.Array(Segment),
  sources: Schema.Array(Schema.Struct({
    messageId: MessageId,
    seq: Schema.Number,
    providerMessageId: Schema.String,
    text: Schema.String,
    /**
     * Who wrote each stretch of `text`: the sender, a transcriber or image reader (with its model),
     * or the rendering of an attachment (labels, line breaks, `[voice note, 0:42]`). They tile the text.
     */
    parts: Schema.Array(Part),
    /** Its attachments whose bytes are stored. */
    media: Schema.Array(SourceMedia)
  })),
  /** Each instruction cut from a source; `start`/`end` place it in that message's text (null when it no longer matches). */
  directives: Schema.Array(Schema.Struct({ ...DirectiveCut.fields, start: Schema.NullOr(Schema.Number), end: Schema.NullOr(Schema.Number) })),
  /** The plan that made the note; null when an answer to a question made it. */
  plan: Schema.NullOr(Schema.Struct({
    planId: PlanId,
    promptVersion: Schema.String,
    promptHash: Schema.String,
    model: Schema.String
  })),
  /** How many plan notes were merged into this one (1 when none were). */
  mergedFrom: Schema.Number,
  /** The answer that confirmed the note, when one did. */
  confirmation: Schema.NullOr(Schema.Struct({ questionId: QuestionId, answer: Answer, answeredAt: Schema.DateTimeUtc })),
  /** The reminders words of its sources set: the words, where they are in their message, when due (on the user's clock) and where each stands. */
  reminders: Schema.Array(Schema.Struct({
    reminderId: ReminderId,
    messageId: MessageId,
    quote: Schema.String,
    start: Schema.Number,
    end: Schema.Number,
    dueLocal: Schema.String,
    zone: Schema.String,
    status: ReminderStatus
  })),
  /** The messages it held whose words were erased at its user's request (a forgetting of them), by seq. */
  erased: Schema.Array(Schema.Struct({ messageId: MessageId, seq: Schema.Number, erasedAt: Schema.DateTimeUtc }))
})
export type NoteAudit = typeof NoteAudit.Type

export const QuestionStatus = Schema.Literal("open", "answered")
export type QuestionStatus = typeof QuestionStatus.Type

export const Question = Schema.Struct({
  id: QuestionId,
  sessionId: SessionId,
  user: UserId,
  reason: QuestionReason,
  status: QuestionStatus,
  sources: Schema.Array(Schema.Struct({ messageId: MessageId, seq: Schema.Number, text: Schema.String })),
  candidates: Schema.Array(Candidate),
  ...withheldField
})
export type Question = typeof Question.Type

export const QuestionsPage = Page(Question)
export type QuestionsPage = typeof QuestionsPage.Type

/** Text a store keeps exactly: no lone surrogate, no U+0000. */
export const storable = <A extends string, I, R>(self: Schema.Schema<A, I, R>) =>
  self.pipe(Schema.filter((text) => {
    const found = notTextIn(text)
    return found === null ? undefined : `contains ${found}, which is not text`
  }, { identifier: "StorableText" }))

/**
 * The body of `POST /api/questions/:id/answer`: a person must be named (the name trimmed); the
 * recorded `Answer` schema stays as it was.
 */
export const AnswerPayload = Schema.Struct({
  answer: Schema.Union(
    Schema.TaggedStruct("Person", {
      contactId: Schema.NullOr(Schema.String.pipe(storable)).annotations({
        message: () => ({ message: "must be null or a string", override: true })
      }),
      name: Schema.Trim.pipe(Schema.nonEmptyString({ message: () => "must not be empty" }), storable)
    }),
    Schema.TaggedStruct("Unattached", {})
  ).annotations({
    message: () => "must be {\"_tag\":\"Person\",\"contactId\":null or a string,\"name\":\"…\"} or {\"_tag\":\"Unattached\"}"
  })
}).annotations({ message: () => "must be a JSON object {\"answer\": …}" })
export type AnswerPayload = typeof AnswerPayload.Type

/**
 * Messages matching a search, newest first, each with who it was forwarded from (null when the
 * sender's own), the note it is in and the person that note is filed under (null when none); and
 * `next`, the `before` of the following page (null when this page is the last).
 */
export const SearchResults = Schema.Struct({
  hits: Schema.Array(Schema.Struct({
    messageId: MessageId,
    sessionId: SessionId,
    seq: Schema.Number,
    user: UserId,
    text: Schema.String,
    forwardedFrom: Schema.NullOr(Schema.String),
    noteId: Schema.NullOr(NoteId),
    personId: Schema.NullOr(PersonId),
    person: Schema.NullOr(Schema.String)
  })),
  next: Schema.NullOr(MessageId)
})
export type SearchResults = typeof SearchResults.Type

/** The note an answer recorded. */
export const AnswerResult = Schema.Struct({ questionId: QuestionId, noteId: NoteId })
export type AnswerResult = typeof AnswerResult.Type

export * from "./Accounting.js"

/**
 * Where an event is in the order a reader must follow, `transactionId:position`: on PostgreSQL a
 * position alone is not (a transaction may commit after a later position was read); on SQLite the
 * transaction id is always 0.
 */
export const EventCursor = Schema.String.pipe(
  Schema.pattern(/^\d{1,15}:\d{1,15}$/, { message: () => "must be a cursor as given: an earlier page's nextAfter or an event's cursor" })
)

/** The cursor of a checkpoint. */
export const cursorOf = (at: { readonly txId: number; readonly position: number }): string => `${at.txId}:${at.position}`

/** The checkpoint a cursor names (one that matched `EventCursor`). */
export const checkpointOfCursor = (cursor: string): { readonly txId: number; readonly position: number } => {
  const [txId, position] = cursor.split(":").map(Number)
  return { txId: txId ?? 0, position: position ?? 0 }
}

/** One event as stored in the log. */
export const StoredEvent = Schema.Struct({
  position: Schema.Number,
  /** Pass as `after` to read the events that follow this one. */
  cursor: EventCursor,
  streamId: Schema.String,
  streamVersion: Schema.Number,
  event: Event,
  recordedAt: Schema.DateTimeUtc
})
export type StoredEvent = typeof StoredEvent.Type

/** Events after a cursor; ask again with `after = nextAfter` (unchanged when there were none). */
export const EventsPage = Schema.Struct({ events: Schema.Array(StoredEvent), nextAfter: EventCursor })
export type EventsPage = typeof EventsPage.Type

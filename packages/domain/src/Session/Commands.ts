/**
 * Every command on a session and every way a decision can refuse one. Ids and the time arrive on
 * the command, so `decide` is pure: the same state and command always decide the same events.
 */
import { Data, type DateTime, type Either } from "effect"
import type { Answer, Event, PlanFailureReason, TokenUsage } from "../Events.js"
import type { IdSupply, MessageId, NoteId, QuestionId, ReplyId, SessionId, UserId } from "../Ids.js"
import type { Edit, NewMessage } from "../Inbound/Inbound.js"
import type { DerivedSource, PageSpan, TranscriptSegment } from "../Media.js"
import type { Json } from "../Json.js"
import type { Plan } from "../Plan.js"
import type { KnownPerson } from "./People.js"

/** One chunk's plan as the model returned it, and what the request showed. */
export interface PlannedChunk {
  readonly plan: Plan
  /** The tool input exactly as the model returned it. */
  readonly raw: Json
  readonly model: string
  readonly usage: TokenUsage
  readonly chunk: { readonly fromSeq: number; readonly toSeq: number }
  readonly truncation: { readonly contactsDropped: number; readonly cutSeq: number | null }
  /** How long the model call took. */
  readonly durationMs: number
}

/** The answer chosen: an option index from a button, or an answer given through the API. */
export type Choice = { readonly _tag: "Option"; readonly index: number } | { readonly _tag: "Given"; readonly answer: Answer }

/** What became of one attempt at an attachment: its bytes stored, its text read, or a failure. */
export type MediaOutcome = Data.TaggedEnum<{
  Fetched: { readonly sha256: string; readonly size: number; readonly mimeType: string | null }
  Failed: { readonly stage: "fetch" | "transcribe"; readonly permanent: boolean; readonly reason: string }
  Read: {
    readonly source: DerivedSource
    readonly text: string
    readonly model: string
    readonly language: string | null
    readonly segments: ReadonlyArray<TranscriptSegment>
    readonly blank?: string
    readonly pages?: ReadonlyArray<PageSpan>
  }
}>
export const MediaOutcome = Data.taggedEnum<MediaOutcome>()

export type Command = Data.TaggedEnum<{
  /** A new message joins the session (`sessionId` names it when this opens it). `fromEdit`: the edit it was captured from. */
  Capture: { readonly sessionId: SessionId; readonly message: NewMessage; readonly fromEdit: Edit | null; readonly now: DateTime.Utc }
  /** New text for a message of the session; the newest edit by the provider's time wins. */
  Edit: { readonly edit: Edit }
  /** The outcome of fetching or reading attachment `attachment` of a message of the session. */
  Media: { readonly messageId: MessageId; readonly attachment: number; readonly outcome: MediaOutcome; readonly now: DateTime.Utc }
  Close: { readonly reason: "idle" | "command" | "import"; readonly now: DateTime.Utc }
  /**
   * The plans of the session's owed messages, decided at `revision`. `replan`: they supersede the
   * live plans (a promoted replay).
   */
  RecordPlans: {
    readonly prompt: { readonly version: string; readonly hash: string }
    readonly plans: ReadonlyArray<PlannedChunk>
    readonly known: ReadonlyArray<KnownPerson>
    readonly revision: number
    readonly replan: boolean
    readonly ids: IdSupply
    /** When corrections a promoted plan carries are re-applied. */
    readonly now: DateTime.Utc
  }
  /** Planning failed: recorded, and the owed messages parked (once) so none is lost. */
  FailPlan: {
    readonly reason: PlanFailureReason
    readonly detail: string
    readonly revision: number
    readonly replan: boolean
    readonly ids: IdSupply
  }
  /** An answer to a question; `asker` is the user answering, `null` for the operator's API. */
  Answer: {
    readonly questionId: QuestionId
    readonly choice: Choice
    readonly asker: UserId | null
    readonly known: ReadonlyArray<KnownPerson>
    readonly ids: IdSupply
    readonly now: DateTime.Utc
  }
  /** File a note under another person, one of `known` or a new one by name, or the sender's own notes. `asker` as for `Answer`. */
  MoveNote: {
    readonly noteId: NoteId
    readonly to: Answer
    readonly asker: UserId | null
    readonly known: ReadonlyArray<KnownPerson>
    readonly ids: IdSupply
    readonly now: DateTime.Utc
  }
  /** Cut a note in two before its message `atSeq`: that message and the later ones become note `newNoteId`. */
  SplitNote: { readonly noteId: NoteId; readonly atSeq: number; readonly asker: UserId | null; readonly ids: IdSupply; readonly now: DateTime.Utc }
  /** Erase these messages' words (a forgetting, `forgetId`), scrubbing `replies` that quoted them. */
  Erase: {
    readonly messageIds: ReadonlyArray<MessageId>
    readonly forgetId: string
    readonly replies: ReadonlyArray<ReplyId>
    readonly now: DateTime.Utc
  }
  /** Set a note aside (`discard: true`) or bring it back. */
  DiscardNote: { readonly noteId: NoteId; readonly discard: boolean; readonly asker: UserId | null; readonly now: DateTime.Utc }
}>
export const Command = Data.taggedEnum<Command>()

/** Why a command changed nothing. None is a fault: each is told politely, or acted on by the runner. */
export type RejectionReason =
  /** The session closed after it was looked up: look again (a new session takes the message). */
  | "moved"
  /** No such session (an empty stream). */
  | "no-session"
  | "already-closed"
  /** The edited message is not in this session. */
  | "not-in-session"
  | "edit-ignored"
  | "not-closed"
  | "already-planned"
  /** Something other than an edit happened since the plan was decided. */
  | "stale"
  | "not-found"
  | "not-yours"
  | "already-answered"
  | "withdrawn"
  | "already-filed"
  | "no-such-option"
  /** The same outcome is already what the attachment stands at (a fetch or reading recorded twice). */
  | "already-recorded"
  /** A curation that would leave things as they are: a note moved where it is, a discarded note discarded. */
  | "unchanged"
  /** A discarded note is restored before it is moved. */
  | "discarded"
  /** A person or name a curation cannot take (an empty name, a person merged into themselves). */
  | "invalid"
  /** A reminder delivered before its time. */
  | "not-due"

/** A decision's refusal: the reason, and plain words for it. */
export class Rejected extends Data.TaggedError("Rejected")<{ readonly reason: RejectionReason; readonly detail: string }> {}

/** A refusal whose words are its reason. */
export const rejected = (reason: RejectionReason, detail: string = reason): Rejected => new Rejected({ reason, detail })

/** What a decision yields: the events to append, or why nothing changes. */
export type Decision = Either.Either<ReadonlyArray<Event>, Rejected>

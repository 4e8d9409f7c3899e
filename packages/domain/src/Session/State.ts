/** A session's state folded from its stream: every session decision reads only this. */
import { DateTime } from "effect"
import type { Candidate, QuestionReason } from "../Decision.js"
import type { Event, PlanFailureReason } from "../Events.js"
import type { MessageId, PlanId, QuestionId, SessionId, UserId } from "../Ids.js"
import { isExported } from "../Inbound/ChatExport.js"
import { awaitedIn, type MessageMedia, received, withMedia, withStatus } from "./MediaState.js"
import { erase } from "./Erased.js"
import { evolveNotes, type NoteState, type Notes, retireNotes } from "./NoteState.js"
import type { InboundMessage } from "../Message.js"

/** A question parked in the session and not retired by a superseding plan. */
export interface QuestionState {
  readonly questionId: QuestionId
  readonly planId: PlanId | null
  readonly user: UserId
  readonly reason: QuestionReason
  readonly status: "open" | "answered" | "withdrawn"
  readonly candidates: ReadonlyArray<Candidate>
  readonly sources: ReadonlyArray<{ readonly messageId: MessageId; readonly seq: number }>
}

export type { MessageMedia, NoteState }
export { senderText } from "./MediaState.js"

export interface SessionState {
  readonly sessionId: SessionId | null
  readonly user: UserId | null
  readonly provider: InboundMessage["provider"] | null
  readonly chat: string | null
  /**
   * In seq order, each with its latest readable text: the sender's words, and for a message with
   * attachments the text derived from them (see `Media.readable`).
   */
  readonly messages: ReadonlyArray<InboundMessage>
  /** Messages with attachments, by id: what their readable text is made of. */
  readonly media: ReadonlyMap<MessageId, MessageMedia>
  /** ISO time of each message's newest recorded edit. */
  readonly editedAt: ReadonlyMap<MessageId, string>
  readonly closed: boolean
  /** Epoch milliseconds of the close, when closed. */
  readonly closedAt: number | null
  /** Plans whose decisions were recorded and not superseded. */
  readonly appliedPlans: ReadonlyArray<PlanId>
  readonly failures: number
  /** Why the latest planning failed, while no plan has been recorded since. */
  readonly lastFailure: PlanFailureReason | null
  /** Questions parked because planning failed, still open. */
  readonly openFailedQuestions: ReadonlyArray<QuestionId>
  /** Seqs of messages the user's answer to a question filed in a note: no plan files them again. */
  readonly answeredSeqs: ReadonlyArray<number>
  readonly questions: ReadonlyMap<QuestionId, QuestionState>
  /** Messages in a live note, by the plan that filed them (`null`: an answer). */
  readonly filed: ReadonlyMap<PlanId | null, ReadonlySet<MessageId>>
  /** The live notes, by id, as curated. */
  readonly notes: Notes
  /** Messages whose words were erased at their user's request: in no note or question, planned never again. */
  readonly erased: ReadonlySet<MessageId>
  /**
   * Counts every event but edits and media outcomes: a plan decided at one revision is stale at another (edits do
   * not make it stale, because note bodies are derived from the text as it stands).
   */
  readonly revision: number
}

/** The messages a plan may still file: all but those an answer filed and those erased. */
export const plannable = (state: SessionState): ReadonlyArray<InboundMessage> =>
  state.answeredSeqs.length === 0 && state.erased.size === 0
    ? state.messages
    : state.messages.filter((m) => !state.answeredSeqs.includes(m.seq) && !state.erased.has(m.id))

/** How many attachments of the messages a plan may still file are still awaited by a reader. */
export const awaitedMedia = (state: SessionState): number => awaitedIn(state, plannable(state))

/**
 * Whether every message of the session came from a chat export. An import's sessions are planned
 * without a reply each (the import sends one for all of them), whoever closed them; a live session
 * the import closed first is not one of them.
 */
export const fromExport = (state: SessionState): boolean =>
  state.messages.length > 0 && state.messages.every((m) => isExported(m.providerMessageId))

/** Whether a message is in a live note. */
export const isFiled = (state: SessionState, messageId: MessageId): boolean => {
  for (const messages of state.filed.values()) if (messages.has(messageId)) return true
  return false
}

/** The seq the next captured message takes. */
export const nextSeq = (state: SessionState): number => (state.messages[state.messages.length - 1]?.seq ?? 0) + 1

export const empty: SessionState = {
  sessionId: null, user: null, provider: null, chat: null, messages: [], media: new Map(), editedAt: new Map(),
  closed: false, closedAt: null, appliedPlans: [], failures: 0, lastFailure: null, openFailedQuestions: [],
  answeredSeqs: [], questions: new Map(), filed: new Map(), notes: new Map(), erased: new Set(), revision: 0
}

const withQuestion = (state: SessionState, questionId: QuestionId, status: QuestionState["status"]) => {
  const question = state.questions.get(questionId)
  return question === undefined ? state.questions : new Map(state.questions).set(questionId, { ...question, status })
}

/** A superseding plan retires the notes and questions of the plans it replaces. */
const retire = (state: SessionState, plans: ReadonlyArray<PlanId>): SessionState => {
  if (plans.length === 0) return state
  const filed = new Map(state.filed)
  for (const plan of plans) filed.delete(plan)
  const questions = new Map([...state.questions].filter(([, q]) => q.planId === null || !plans.includes(q.planId)))
  return { ...state, filed, questions, notes: retireNotes(state.notes, plans), appliedPlans: state.appliedPlans.filter((id) => !plans.includes(id)) }
}

/** Events the state does not follow, named so a new event type is handled in `evolveFacts` or listed here, or does not compile. */
type Unfollowed = Extract<Event, {
  readonly _tag:
    | "InstructionRecorded" | "PersonAdded" | "PersonRenamed" | "PeopleMerged" | "PeopleUnmerged" | "ReplyQueued" | "ReplySent"
    | "ReplyFailed" | "WebSignIn" | "WebSignedOut" | "OperatorRead" | "Forgotten" | "PersonForgotten" | "ReminderScheduled"
    | "ReminderTimeAsked" | "ReminderHeld" | "ReminderDelivered" | "ReminderDone" | "ReminderSnoozed" | "ReminderRescheduled"
    | "ReminderCancelled" | "RemindersTaken" | "TimeZoneSet" | "AskPosed" | "AskAnswered" | "AskFailed" | "AskQuoteConfirmed"
}>

const evolveFacts = (state: SessionState, event: Event): SessionState => {
  switch (event._tag) {
    case "SessionOpened":
      return { ...state, sessionId: event.sessionId, user: event.user, provider: event.provider, chat: event.chat }
    case "MessageReceived": {
      const last = state.messages[state.messages.length - 1]
      const messages = last === undefined || last.seq < event.message.seq
        ? [...state.messages, event.message]
        : [...state.messages, event.message].sort((a, b) => a.seq - b.seq)
      return received({ ...state, messages }, event.message)
    }
    case "MessageEdited": {
      const editedAt = new Map(state.editedAt).set(event.messageId, DateTime.formatIso(event.editedAt))
      return state.media.has(event.messageId)
        ? withMedia({ ...state, editedAt }, event.messageId, (media) => ({ ...media, senderText: event.text }))
        : {
          ...state,
          messages: state.messages.map((m) => (m.id === event.messageId ? { ...m, text: event.text } as InboundMessage : m)),
          editedAt
        }
    }
    case "MediaFetched":
      return withMedia(state, event.messageId, withStatus(event.attachment, (status) => ({
        ...status,
        fetched: { sha256: event.sha256, size: event.size },
        failure: status.failure?.stage === "fetch" ? null : status.failure
      })))
    case "MediaFailed":
      return withMedia(state, event.messageId, withStatus(event.attachment, (status) => ({
        ...status,
        failure: { stage: event.stage, permanent: event.permanent, reason: event.reason, attempt: event.attempt }
      })))
    case "MediaTranscribed":
      return withMedia(state, event.messageId, withStatus(event.attachment, (status) => ({
        ...status,
        failure: null,
        derived: { source: event.source, text: event.text, model: event.model, blank: event.blank ?? null, pages: event.pages ?? null }
      })))
    case "SessionClosed":
      return { ...state, closed: true, closedAt: DateTime.toEpochMillis(event.closedAt) }
    case "PlanApplied":
      return { ...state, appliedPlans: [...state.appliedPlans, event.planId], lastFailure: null }
    case "PlanProduced":
      return retire(state, event.supersedes)
    case "PlanFailed":
      return { ...state, failures: state.failures + 1, lastFailure: event.reason }
    case "QuestionParked": {
      const question: QuestionState = { ...event, status: "open" }
      return {
        ...state,
        questions: new Map(state.questions).set(event.questionId, question),
        openFailedQuestions: event.reason === "failed" ? [...state.openFailedQuestions, event.questionId] : state.openFailedQuestions
      }
    }
    case "NoteRecorded": {
      const filed = new Map(state.filed)
      filed.set(event.planId, new Set([...(filed.get(event.planId) ?? []), ...event.sources.map((s) => s.messageId)]))
      const notes = evolveNotes(state.notes, event)
      return event.questionId === null
        ? { ...state, filed, notes }
        : { ...state, filed, notes, answeredSeqs: [...state.answeredSeqs, ...event.sources.map((s) => s.seq)] }
    }
    case "NoteMoved":
    case "NoteSplit":
    case "NoteDiscarded":
    case "NoteRestored":
      return { ...state, notes: evolveNotes(state.notes, event) }
    case "MessagesErased":
      return erase(state, new Set(event.messageIds))
    case "QuestionAnswered":
    case "QuestionWithdrawn":
      return {
        ...state,
        questions: withQuestion(state, event.questionId, event._tag === "QuestionAnswered" ? "answered" : "withdrawn"),
        openFailedQuestions: state.openFailedQuestions.filter((id) => id !== event.questionId)
      }
    default:
      event satisfies Unfollowed
      return state
  }
}

/**
 * Events that change only what a message reads as: like an edit, they leave a decided plan
 * current, because note bodies are derived from the text as it stands.
 */
const rereads: ReadonlySet<Event["_tag"]> = new Set(["MessageEdited", "MediaFetched", "MediaFailed", "MediaTranscribed"])

/** One event's effect on the state; events of other kinds leave it unchanged. */
export const evolve = (state: SessionState, event: Event): SessionState => {
  const next = evolveFacts(state, event)
  return rereads.has(event._tag) ? next : { ...next, revision: next.revision + 1 }
}

export const fold = (events: Iterable<Event>, from: SessionState = empty): SessionState => {
  let state = from
  for (const event of events) state = evolve(state, event)
  return state
}

/** A session's state folded from its stream: the decide side of the plan job reads only this. */
import type { Event } from "../Events.js"
import type { PlanId, QuestionId, SessionId, UserId } from "../Ids.js"
import type { InboundMessage } from "../Message.js"

export interface SessionState {
  readonly sessionId: SessionId | null
  readonly user: UserId | null
  readonly provider: InboundMessage["provider"] | null
  readonly chat: string | null
  /** In seq order, each with its latest text. */
  readonly messages: ReadonlyArray<InboundMessage>
  readonly closed: boolean
  /** Plans whose decisions were recorded and not superseded. */
  readonly appliedPlans: ReadonlyArray<PlanId>
  readonly failures: number
  /** Questions parked because planning failed, still open. */
  readonly openFailedQuestions: ReadonlyArray<QuestionId>
  /** Seqs of messages the user's answer to a question filed in a note: no plan files them again. */
  readonly answeredSeqs: ReadonlyArray<number>
}

/** The messages a plan may still file: all but those an answer filed. */
export const plannable = (state: SessionState): ReadonlyArray<InboundMessage> =>
  state.answeredSeqs.length === 0 ? state.messages : state.messages.filter((m) => !state.answeredSeqs.includes(m.seq))

export const empty: SessionState = {
  sessionId: null,
  user: null,
  provider: null,
  chat: null,
  messages: [],
  closed: false,
  appliedPlans: [],
  failures: 0,
  openFailedQuestions: [],
  answeredSeqs: []
}

/** One event's effect on the state; events of other kinds leave it unchanged. */
export const evolve = (state: SessionState, event: Event): SessionState => {
  switch (event._tag) {
    case "SessionOpened":
      return { ...state, sessionId: event.sessionId, user: event.user, provider: event.provider, chat: event.chat }
    case "MessageReceived":
      return { ...state, messages: [...state.messages, event.message].sort((a, b) => a.seq - b.seq) }
    case "MessageEdited":
      return {
        ...state,
        messages: state.messages.map((m) => (m.id === event.messageId ? { ...m, text: event.text } as InboundMessage : m))
      }
    case "SessionClosed":
      return { ...state, closed: true }
    case "PlanApplied":
      return { ...state, appliedPlans: [...state.appliedPlans, event.planId] }
    case "PlanProduced":
      return event.supersedes.length === 0
        ? state
        : { ...state, appliedPlans: state.appliedPlans.filter((id) => !event.supersedes.includes(id)) }
    case "PlanFailed":
      return { ...state, failures: state.failures + 1 }
    case "QuestionParked":
      return event.reason === "failed"
        ? { ...state, openFailedQuestions: [...state.openFailedQuestions, event.questionId] }
        : state
    case "NoteRecorded":
      return event.questionId === null
        ? state
        : { ...state, answeredSeqs: [...state.answeredSeqs, ...event.sources.map((s) => s.seq)] }
    case "QuestionAnswered":
    case "QuestionWithdrawn":
      return { ...state, openFailedQuestions: state.openFailedQuestions.filter((id) => id !== event.questionId) }
    default:
      return state
  }
}

export const fold = (events: Iterable<Event>): SessionState => {
  let state = empty
  for (const event of events) state = evolve(state, event)
  return state
}

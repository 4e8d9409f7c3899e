/** A session's state once messages are erased (`MessagesErased`): see `erase`. */
import type { MessageId, PlanId, QuestionId } from "../Ids.js"
import type { InboundMessage } from "../Message.js"
import type { Notes } from "./NoteState.js"

type Question = {
  readonly sources: ReadonlyArray<{ readonly messageId: MessageId; readonly seq: number }>
  readonly status: "open" | "answered" | "withdrawn"
}

/** The parts of a session's state an erasure changes. */
interface Erasable<Q extends Question> {
  readonly messages: ReadonlyArray<InboundMessage>
  readonly media: ReadonlyMap<MessageId, unknown>
  readonly notes: Notes
  readonly questions: ReadonlyMap<QuestionId, Q>
  readonly filed: ReadonlyMap<PlanId | null, ReadonlySet<MessageId>>
  readonly openFailedQuestions: ReadonlyArray<QuestionId>
  readonly erased: ReadonlySet<MessageId>
}

/** Erased messages keep their place in the session and lose their words, their media's text and every note and question. */
export const erase = <Q extends Question, S extends Erasable<Q>>(state: S, gone: ReadonlySet<MessageId>): S => {
  const keep = <S extends { readonly messageId: MessageId }>(sources: ReadonlyArray<S>) => sources.filter((s) => !gone.has(s.messageId))
  const notes = new Map([...state.notes].flatMap(([id, note]) => {
    const sources = keep(note.sources)
    return sources.length === 0 ? [] : [[id, sources.length === note.sources.length ? note : { ...note, sources }] as const]
  }))
  const questions = new Map([...state.questions].map(([id, q]) => {
    const sources = keep(q.sources)
    if (sources.length === q.sources.length) return [id, q] as const
    return [id, { ...q, sources, status: sources.length === 0 && q.status === "open" ? "withdrawn" as const : q.status }] as const
  }))
  const filed = new Map([...state.filed].map(([plan, ids]) => [plan, new Set([...ids].filter((id) => !gone.has(id)))] as const))
  const media = new Map([...state.media].filter(([id]) => !gone.has(id)))
  const erased: S = {
    ...state,
    messages: state.messages.map((m) => gone.has(m.id) ? { ...m, text: "", forwardedFrom: null, attachments: [], links: [] } as InboundMessage : m),
    media,
    notes,
    questions,
    filed,
    openFailedQuestions: state.openFailedQuestions.filter((id) => questions.get(id)?.status === "open"),
    erased: new Set([...state.erased, ...gone])
  }
  return erased
}

/**
 * Labels from the log: per session, the outcome its user ended up accepting. A message filed by
 * a plan and left alone is accepted where it was filed; the user's answer to a question, a note
 * moved, a note discarded, people merged all override it. These are the ground truth a replayed
 * plan is scored against, with no one writing expected answers by hand.
 */
import type { Event } from "../Events.js"
import type { MessageId, NoteId, QuestionId, SessionId } from "../Ids.js"
import * as SessionState from "../Session/State.js"
import { type Directory, personTarget, resolveOwner, type Target } from "./Directory.js"

/**
 * How a message's label was reached: filed by a plan and left there, filed by the user's answer,
 * moved by the user, set aside by the user, or not decided yet (an open question, never planned).
 */
export type Basis = "plan" | "answer" | "moved" | "discarded" | "open"

export interface MessageLabel {
  readonly seq: number
  readonly messageId: MessageId
  /** Where the user accepted it; null when they accepted no place (discarded, or still open). */
  readonly target: Target | null
  readonly basis: Basis
}

/** A question the user answered: the answer is the label of its messages. */
export interface AnsweredLabel {
  readonly questionId: QuestionId
  readonly seqs: ReadonlyArray<number>
  readonly answer: Target
}

export interface SessionLabels {
  readonly sessionId: SessionId | null
  /** One per message, by seq. */
  readonly messages: ReadonlyArray<MessageLabel>
  /** In the order they were answered. */
  readonly answered: ReadonlyArray<AnsweredLabel>
  /** Seqs of the messages the user edited, ascending. */
  readonly edited: ReadonlyArray<number>
}

type Recorded = Extract<Event, { readonly _tag: "NoteRecorded" }>

/** The labels of one session's events; `people` resolves the people its notes and answers name. */
export const sessionLabels = (events: ReadonlyArray<Event>, people: Directory): SessionLabels => {
  const state = SessionState.fold(events)
  const recorded = new Map<NoteId, Recorded>()
  const moved = new Set<NoteId>()
  /** Each note split off another, and the note first recorded that it came from. */
  const origin = new Map<NoteId, NoteId>()
  const answers: Array<Extract<Event, { readonly _tag: "QuestionAnswered" }>> = []
  const parked = new Map<QuestionId, ReadonlyArray<number>>()
  const bot = new Set<number>()
  for (const event of events) {
    if (event._tag === "NoteRecorded") recorded.set(event.noteId, event)
    else if (event._tag === "NoteMoved") moved.add(event.noteId)
    else if (event._tag === "NoteSplit") origin.set(event.newNoteId, origin.get(event.noteId) ?? event.noteId)
    else if (event._tag === "QuestionAnswered") answers.push(event)
    else if (event._tag === "QuestionParked") parked.set(event.questionId, event.sources.map((s) => s.seq))
    else if (event._tag === "InstructionRecorded" && event.kind === "message" && state.appliedPlans.includes(event.planId)) {
      bot.add(event.seq)
    }
  }
  const labels = new Map<number, Pick<MessageLabel, "target" | "basis">>()
  for (const seq of bot) labels.set(seq, { target: { _tag: "Bot" }, basis: "plan" })
  for (const note of state.notes.values()) {
    const record = recorded.get(origin.get(note.noteId) ?? note.noteId)!
    const target: Target = note.personId !== null
      ? personTarget(people, note.personId)
      : moved.has(note.noteId) ? { _tag: "Unattached" } : resolveOwner(people, record.owner)
    const basis: Basis = note.discarded ? "discarded" : moved.has(note.noteId) ? "moved" : record.questionId === null ? "plan" : "answer"
    for (const { seq } of note.sources) labels.set(seq, { target: note.discarded ? null : target, basis })
  }
  // Every answer stands, even to a question of a plan a later one superseded: the user said it.
  const answered = answers.map((answer): AnsweredLabel => {
    const note = [...recorded.values()].find((n) => n.questionId === answer.questionId)
    return {
      questionId: answer.questionId,
      seqs: [...(parked.get(answer.questionId) ?? [])].sort((a, b) => a - b),
      answer: note?.personId != null ? personTarget(people, note.personId) : resolveOwner(people, answer.answer)
    }
  })
  return {
    sessionId: state.sessionId,
    messages: state.messages.map((m) => ({ seq: m.seq, messageId: m.id, ...(labels.get(m.seq) ?? { target: null, basis: "open" }) })),
    answered: answered.sort((a, b) => (a.questionId < b.questionId ? -1 : a.questionId > b.questionId ? 1 : 0)),
    edited: state.messages.filter((m) => state.editedAt.has(m.id)).map((m) => m.seq)
  }
}

/**
 * Recording plans: the raw plan, the decisions `applyPlan` derives from it, the people it
 * introduces and the replies that tell the sender, all in one decision. A failed plan is
 * recorded with the owed messages parked (once), so nothing is lost.
 */
import { Either } from "effect"
import { applyPlan, type Decisions } from "../ApplyPlan/ApplyPlan.js"
import type { PlanWarning } from "../Decision.js"
import type { Event } from "../Events.js"
import { type IdSupply, NoteId, PlanId, QuestionId, type SessionId } from "../Ids.js"
import * as Media from "../Media.js"
import * as ReplyText from "../ReplyText.js"
import { type Command, type Decision, rejected, type Rejected } from "./Commands.js"
import { resolver } from "./People.js"
import { repairStrings, repairWarning } from "./Repair.js"
import { queueReply, type Recipient } from "./Replies.js"
import { fromExport, plannable, type SessionState } from "./State.js"

type Parked = { readonly questionId: QuestionId; readonly question: Decisions["questions"][number] }

/** The session's sender, or a rejection when the session never opened or is still open. */
const closedSession = (state: SessionState, revision: number): Either.Either<Recipient & { readonly sessionId: SessionId }, Rejected> => {
  if (!state.closed || state.sessionId === null || state.user === null || state.provider === null || state.chat === null) {
    return Either.left(rejected("not-closed"))
  }
  if (state.revision !== revision) return Either.left(rejected("stale"))
  return Either.right({ sessionId: state.sessionId, user: state.user, provider: state.provider, chat: state.chat })
}

const questionReplies = (ids: IdSupply, to: Recipient, parked: ReadonlyArray<Parked>, textOf: (seq: number) => string) =>
  parked.map(({ question, questionId }) => {
    const buttons = ReplyText.answerOptions(question.candidates).map((option, index) => ({
      label: ReplyText.optionLabel(option),
      data: ReplyText.answerData(questionId, index)
    }))
    const text = ReplyText.questionText(question.reason, question.seqs.map(textOf), ReplyText.replyLimit(to.provider, true))
    return queueReply(ids, to, text, buttons, questionId)
  })

export const decideRecordPlans = (state: SessionState, command: Command & { readonly _tag: "RecordPlans" }): Decision => {
  const session = closedSession(state, command.revision)
  if (Either.isLeft(session)) return Either.left(session.left)
  const to = session.right
  if (state.appliedPlans.length > 0 && !command.replan) return Either.left(rejected("already-planned"))
  // Messages the user filed by answering a question stay where the answer put them.
  const owed = plannable(state)
  if (owed.length === 0) return Either.left(rejected("already-planned"))
  const { ids } = command
  const people = resolver(command.known, to.user, ids)
  const textOf = (seq: number) => owed.find((m) => m.seq === seq)?.text ?? ""
  const decided: Array<Event> = []
  const owners: Array<ReplyText.NoteOwner> = []
  const parked: Array<Parked> = []
  const instructions: Array<{ readonly text: string }> = []
  const warnings: Array<PlanWarning> = []
  for (const [index, chunkPlan] of command.plans.entries()) {
    const planId = PlanId.make(ids.next("plan"))
    const { fromSeq, toSeq } = chunkPlan.chunk
    const plan = repairStrings(chunkPlan.plan)
    const raw = repairStrings(chunkPlan.raw)
    const messages = owed.filter((m) => m.seq >= fromSeq && m.seq <= toSeq)
    const decisions = applyPlan(messages, plan.value)
    const chunkWarnings = plan.repaired + raw.repaired === 0
      ? decisions.warnings
      : [...decisions.warnings, repairWarning]
    decided.push({
      _tag: "PlanProduced",
      planId,
      sessionId: to.sessionId,
      plan: raw.value,
      promptVersion: command.prompt.version,
      promptHash: command.prompt.hash,
      model: chunkPlan.model,
      usage: chunkPlan.usage,
      chunk: chunkPlan.chunk,
      truncation: chunkPlan.truncation,
      // All at once, before any new chunk's notes: an old chunk's sources may fall in any new one.
      supersedes: index === 0 && command.replan ? state.appliedPlans : [],
      durationMs: chunkPlan.durationMs
    })
    const noteIds: Array<NoteId> = []
    for (const note of decisions.notes) {
      const noteId = NoteId.make(ids.next("note"))
      noteIds.push(noteId)
      const personId = people.resolve(note.owner)
      owners.push({ key: personId ?? "", label: ReplyText.ownerLabel(note.owner) })
      decided.push({
        _tag: "NoteRecorded",
        noteId,
        sessionId: to.sessionId,
        user: to.user,
        planId,
        questionId: null,
        owner: people.owner(note.owner),
        personId,
        sources: note.seqs.map((seq, i) => ({ seq, messageId: note.messageIds[i]! })),
        directives: note.directives,
        mergedFrom: note.mergedFrom
      })
    }
    const questionIds: Array<QuestionId> = []
    for (const question of decisions.questions) {
      const questionId = QuestionId.make(ids.next("q"))
      questionIds.push(questionId)
      parked.push({ questionId, question })
      decided.push({
        _tag: "QuestionParked",
        questionId,
        sessionId: to.sessionId,
        user: to.user,
        planId,
        reason: question.reason,
        sources: question.seqs.map((seq, i) => ({ seq, messageId: question.messageIds[i]! })),
        candidates: question.candidates.map(people.owner)
      })
    }
    for (const instruction of decisions.instructions) {
      instructions.push(instruction)
      decided.push({ _tag: "InstructionRecorded", sessionId: to.sessionId, planId, ...instruction })
    }
    warnings.push(...chunkWarnings)
    decided.push({ _tag: "PlanApplied", planId, sessionId: to.sessionId, noteIds, questionIds, warnings: chunkWarnings })
  }
  const withdrawn: Array<Event> = state.openFailedQuestions.map((questionId) => ({
    _tag: "QuestionWithdrawn",
    questionId,
    sessionId: to.sessionId,
    reason: "replanned"
  }))
  const recorded = [...people.added, ...withdrawn, ...decided]
  // An import's questions wait on /api/questions: one reply per imported session would flood the chat.
  if (fromExport(state)) return Either.right(recorded)
  const unread = plannable(state).flatMap((m) => {
    const media = state.media.get(m.id)
    return media === undefined ? [] : Media.unread(m.attachments, media.statuses)
  })
  const summary = queueReply(ids, to, ReplyText.planSummary({ owners, questions: parked.length, instructions, warnings, unread }))
  const asked = questionReplies(ids, to, parked, textOf)
  return Either.right([...recorded, summary, ...asked])
}

export const decideFailPlan = (state: SessionState, command: Command & { readonly _tag: "FailPlan" }): Decision => {
  const session = closedSession(state, command.revision)
  if (Either.isLeft(session)) return Either.left(session.left)
  const to = session.right
  // A failed re-plan leaves the live plans in force: their messages are filed already.
  if (command.replan && state.appliedPlans.length > 0) return Either.right([])
  const owed = plannable(state)
  const failed: Event = {
    _tag: "PlanFailed",
    sessionId: to.sessionId,
    reason: command.reason,
    attempt: state.failures + 1,
    detail: repairStrings(command.detail).value
  }
  if (state.openFailedQuestions.length > 0 || owed.length === 0) return Either.right([failed])
  const questionId = QuestionId.make(command.ids.next("q"))
  const parked: Event = {
    _tag: "QuestionParked",
    questionId,
    sessionId: to.sessionId,
    user: to.user,
    planId: null,
    reason: "failed",
    sources: owed.map((m) => ({ seq: m.seq, messageId: m.id })),
    candidates: []
  }
  return Either.right(
    fromExport(state) ? [failed, parked] : [failed, parked, queueReply(command.ids, to, ReplyText.questionText("failed", []))]
  )
}

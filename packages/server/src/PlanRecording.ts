/**
 * Turning plans into events: the raw plan, the decisions `applyPlan` derives from it, the people
 * it introduces and the replies that tell the sender. Everything here is appended in one append.
 */
import type { Owner, PlanWarning } from "@verbatim/domain/Decision"
import { applyPlan, type Decisions } from "@verbatim/domain/ApplyPlan/ApplyPlan"
import type { Event } from "@verbatim/domain/Events"
import type { NoteId, PlanId, QuestionId, ReplyId, SessionId, UserId } from "@verbatim/domain/Ids"
import * as ReplyText from "@verbatim/domain/ReplyText"
import type { SessionState } from "@verbatim/domain/Session/State"
import type { PlanFailureReason } from "@verbatim/domain/Events"
import { Effect } from "effect"
import { IdGenerator } from "./IdGenerator.js"
import { type KnownPerson, resolver } from "./People.js"
import type { SessionPlans } from "./Planning.js"

type Conversation = { readonly sessionId: SessionId; readonly user: UserId; readonly provider: "telegram" | "whatsapp"; readonly chat: string }

const conversationOf = (state: SessionState): Conversation | null =>
  state.sessionId === null || state.user === null || state.provider === null || state.chat === null
    ? null
    : { sessionId: state.sessionId, user: state.user, provider: state.provider, chat: state.chat }

/** A reply to the conversation's sender, queued for the outbox. */
export const queueReply = (
  conversation: Pick<Conversation, "user" | "provider" | "chat">,
  text: string,
  buttons: ReadonlyArray<{ readonly label: string; readonly data: string }> = [],
  questionId: QuestionId | null = null
): Effect.Effect<Event, never, IdGenerator> =>
  Effect.map(Effect.flatMap(IdGenerator, (ids) => ids.next("reply")), (replyId) => ({
    _tag: "ReplyQueued",
    replyId: replyId as ReplyId,
    user: conversation.user,
    provider: conversation.provider,
    chat: conversation.chat,
    // Longer than the provider takes, it would be refused and never reach the user.
    text: ReplyText.cut(text, ReplyText.replyLimit(conversation.provider, buttons.length > 0)),
    buttons,
    questionId
  }))

const questionReplies = Effect.fn("PlanRecording.questionReplies")(function*(
  conversation: Conversation,
  questions: ReadonlyArray<{ readonly questionId: QuestionId; readonly question: Decisions["questions"][number] }>,
  textOf: (seq: number) => string
) {
  const replies: Array<Event> = []
  for (const { question, questionId } of questions) {
    const buttons = ReplyText.answerOptions(question.candidates).map((option, index) => ({
      label: ReplyText.optionLabel(option),
      data: ReplyText.answerData(questionId, index)
    }))
    const text = ReplyText.questionText(question.reason, question.seqs.map(textOf), ReplyText.replyLimit(conversation.provider, true))
    replies.push(yield* queueReply(conversation, text, buttons, questionId))
  }
  return replies
})

/** Every event recording the plans of a session, its decisions and the replies to send. */
export const planEvents = Effect.fn("PlanRecording.planEvents")(function*(
  state: SessionState,
  planned: SessionPlans,
  known: ReadonlyArray<KnownPerson>,
  supersedes: ReadonlyArray<PlanId> = []
) {
  const conversation = conversationOf(state)
  if (conversation === null) return []
  const ids = yield* IdGenerator
  const people = resolver(known, conversation.user)
  const textOf = (seq: number) => state.messages.find((m) => m.seq === seq)?.text ?? ""
  const decided: Array<Event> = []
  const owners: Array<Owner> = []
  const parked: Array<{ questionId: QuestionId; question: Decisions["questions"][number] }> = []
  const warnings: Array<PlanWarning> = []
  for (const [index, chunkPlan] of planned.plans.entries()) {
    const planId = (yield* ids.next("plan")) as PlanId
    const { fromSeq, toSeq } = chunkPlan.built.chunk
    const messages = state.messages.filter((m) => m.seq >= fromSeq && m.seq <= toSeq)
    const decisions = applyPlan(messages, chunkPlan.result.plan)
    decided.push({
      _tag: "PlanProduced",
      planId,
      sessionId: conversation.sessionId,
      plan: chunkPlan.result.raw,
      promptVersion: planned.prompt.version,
      promptHash: planned.prompt.hash,
      model: chunkPlan.result.model,
      usage: chunkPlan.result.usage,
      chunk: chunkPlan.built.chunk,
      truncation: chunkPlan.built.truncation,
      // All at once, before any new chunk's notes: an old chunk's sources may fall in any new one.
      supersedes: index === 0 ? supersedes : []
    })
    const noteIds: Array<NoteId> = []
    for (const note of decisions.notes) {
      const noteId = (yield* ids.next("note")) as NoteId
      noteIds.push(noteId)
      owners.push(note.owner)
      decided.push({
        _tag: "NoteRecorded",
        noteId,
        sessionId: conversation.sessionId,
        user: conversation.user,
        planId,
        questionId: null,
        owner: people.owner(note.owner),
        personId: yield* people.resolve(note.owner),
        sources: note.seqs.map((seq, i) => ({ seq, messageId: note.messageIds[i]! })),
        directives: note.directives,
        mergedFrom: note.mergedFrom
      })
    }
    const questionIds: Array<QuestionId> = []
    for (const question of decisions.questions) {
      const questionId = (yield* ids.next("q")) as QuestionId
      questionIds.push(questionId)
      parked.push({ questionId, question })
      decided.push({
        _tag: "QuestionParked",
        questionId,
        sessionId: conversation.sessionId,
        user: conversation.user,
        planId,
        reason: question.reason,
        sources: question.seqs.map((seq, i) => ({ seq, messageId: question.messageIds[i]! })),
        candidates: question.candidates.map(people.owner)
      })
    }
    for (const instruction of decisions.instructions) {
      decided.push({ _tag: "InstructionRecorded", sessionId: conversation.sessionId, planId, ...instruction })
    }
    warnings.push(...decisions.warnings)
    decided.push({ _tag: "PlanApplied", planId, sessionId: conversation.sessionId, noteIds, questionIds, warnings: decisions.warnings })
  }
  const withdrawn: Array<Event> = state.openFailedQuestions.map((questionId) => ({
    _tag: "QuestionWithdrawn",
    questionId,
    sessionId: conversation.sessionId,
    reason: "replanned"
  }))
  const summary = yield* queueReply(conversation, ReplyText.planSummary({ owners, questions: parked.length, warnings }))
  const asked = yield* questionReplies(conversation, parked, textOf)
  return [...people.added, ...withdrawn, ...decided, summary, ...asked]
})

/** The events recording a failed planning attempt: the failure, and (once) the messages parked so none is lost. */
export const failureEvents = Effect.fn("PlanRecording.failureEvents")(function*(
  state: SessionState,
  reason: PlanFailureReason,
  detail: string
) {
  const conversation = conversationOf(state)
  if (conversation === null) return []
  const failed: Event = { _tag: "PlanFailed", sessionId: conversation.sessionId, reason, attempt: state.failures + 1, detail }
  if (state.openFailedQuestions.length > 0 || state.messages.length === 0) return [failed]
  const ids = yield* IdGenerator
  const questionId = (yield* ids.next("q")) as QuestionId
  const reply = yield* queueReply(conversation, ReplyText.questionText("failed", []))
  return [
    failed,
    {
      _tag: "QuestionParked",
      questionId,
      sessionId: conversation.sessionId,
      user: conversation.user,
      planId: null,
      reason: "failed",
      sources: state.messages.map((m) => ({ seq: m.seq, messageId: m.id })),
      candidates: []
    },
    reply
  ] satisfies Array<Event>
})

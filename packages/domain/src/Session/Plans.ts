/**
 * Recording plans: the raw plan, the decisions `applyPlan` derives from it, the people it
 * introduces and the replies that tell the sender, all in one decision. A failed plan is
 * recorded with the owed messages parked (once), so nothing is lost.
 */
import { Either } from "effect"
import { applyPlan } from "../ApplyPlan/ApplyPlan.js"
import type { PlanWarning } from "../Decision.js"
import type { Event } from "../Events.js"
import { type IdSupply, type MessageId, NoteId, PlanId, QuestionId, type SessionId } from "../Ids.js"
import * as Media from "../Media.js"
import * as ReplyText from "../ReplyText.js"
import { carry, type DraftNote, type DraftQuestion } from "./Carry.js"
import { type Command, type Decision, rejected, type Rejected } from "./Commands.js"
import { correctionsOf } from "./Corrections.js"
import { resolver } from "./People.js"
import { repairStrings, repairWarning } from "./Repair.js"
import { queueReply, type Recipient } from "./Replies.js"
import { fromExport, plannable, type SessionState } from "./State.js"

/** The session's sender, or a rejection when the session never opened or is still open. */
const closedSession = (state: SessionState, revision: number): Either.Either<Recipient & { readonly sessionId: SessionId }, Rejected> => {
  if (!state.closed || state.sessionId === null || state.user === null || state.provider === null || state.chat === null) {
    return Either.left(rejected("not-closed"))
  }
  if (state.revision !== revision) return Either.left(rejected("stale"))
  return Either.right({ sessionId: state.sessionId, user: state.user, provider: state.provider, chat: state.chat })
}

const questionReplies = (ids: IdSupply, to: Recipient, parked: ReadonlyArray<DraftQuestion>, textOf: (seq: number) => string) =>
  parked.map((question) => {
    const buttons = ReplyText.answerOptions(question.candidates).map((option, index) => ({
      label: ReplyText.optionLabel(option),
      data: ReplyText.answerData(question.questionId, index)
    }))
    const texts = question.sources.map((s) => textOf(s.seq))
    const text = ReplyText.questionText(question.reason, texts, ReplyText.replyLimit(to.provider, true), question.candidates)
    return queueReply(ids, to, text, buttons, question.questionId)
  })

/** One chunk's plan as decided, its notes and questions not recorded yet. */
interface Drafted {
  readonly produced: Event
  readonly planId: PlanId
  readonly notes: ReadonlyArray<DraftNote>
  readonly questions: ReadonlyArray<DraftQuestion>
  readonly instructions: ReadonlyArray<Event & { readonly _tag: "InstructionRecorded" }>
  readonly warnings: ReadonlyArray<PlanWarning>
}

const draftChunk = (state: SessionState, command: RecordPlans, to: Recipient & { readonly sessionId: SessionId }, people: ReturnType<typeof resolver>) =>
(chunkPlan: RecordPlans["plans"][number], index: number): Drafted => {
  const { ids } = command
  const planId = PlanId.make(ids.next("plan"))
  const { fromSeq, toSeq } = chunkPlan.chunk
  const plan = repairStrings(chunkPlan.plan)
  const raw = repairStrings(chunkPlan.raw)
  const messages = plannable(state).filter((m) => m.seq >= fromSeq && m.seq <= toSeq)
  const decisions = applyPlan(messages, plan.value)
  const sourcesOf = (item: { readonly seqs: ReadonlyArray<number>; readonly messageIds: ReadonlyArray<MessageId> }) =>
    item.seqs.map((seq, i) => ({ seq, messageId: item.messageIds[i]! }))
  const produced: Event = {
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
  }
  const notes = decisions.notes.map((note): DraftNote => ({
    noteId: NoteId.make(ids.next("note")),
    planId,
    personId: people.resolve(note.owner),
    owner: people.owner(note.owner),
    sources: sourcesOf(note),
    directives: note.directives,
    mergedFrom: note.mergedFrom
  }))
  const questions = decisions.questions.map((question): DraftQuestion => ({
    questionId: QuestionId.make(ids.next("q")),
    planId,
    reason: question.reason,
    sources: sourcesOf(question),
    candidates: question.candidates.map(people.owner)
  }))
  const instructions = decisions.instructions.map((instruction) => ({ _tag: "InstructionRecorded" as const, sessionId: to.sessionId, planId, ...instruction }))
  const warnings = plan.repaired + raw.repaired === 0 ? decisions.warnings : [...decisions.warnings, repairWarning]
  return { produced, planId, notes, questions, instructions, warnings }
}

/** The owner of each note once the carried curation is applied, for the summary. */
const ownersAfter = (notes: ReadonlyArray<DraftNote>, after: ReadonlyArray<Event>): ReadonlyArray<ReplyText.NoteOwner> => {
  const owners = new Map(notes.map((n) => [n.noteId as string, { key: n.personId ?? "", label: ReplyText.ownerLabel(n.owner) }]))
  for (const event of after) {
    if (event._tag === "NoteMoved") owners.set(event.noteId, { key: event.personId ?? "", label: ReplyText.ownerLabel(event.owner) })
    if (event._tag === "NoteSplit") owners.set(event.newNoteId, owners.get(event.noteId)!)
    if (event._tag === "NoteDiscarded") owners.delete(event.noteId)
  }
  return [...owners.values()]
}

type RecordPlans = Command & { readonly _tag: "RecordPlans" }

export const decideRecordPlans = (state: SessionState, command: RecordPlans): Decision => {
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
  const drafted = command.plans.map(draftChunk(state, command, to, people))
  const planOf = (seq: number) => (drafted.find((_, i) => seq <= command.plans[i]!.chunk.toSeq) ?? drafted[drafted.length - 1]!).planId
  const superseded = command.replan ? state.appliedPlans : []
  const names = new Map(command.known.filter((p) => p.mergedFrom === undefined).map((p) => [p.personId as string, p.name]))
  const { after, notes, questions, taken } = carry(correctionsOf(state, superseded), drafted.flatMap((d) => d.notes), drafted.flatMap((d) => d.questions), {
    sessionId: to.sessionId,
    now: command.now,
    ids,
    resolve: people.resolve,
    nameOf: (personId) => names.get(personId),
    planOf
  })
  // A message a correction placed is not also a whole-message instruction.
  const instructionsOf = (d: Drafted) => d.instructions.filter((i) => i.kind === "directive" || !taken.has(i.messageId))
  const decided = drafted.flatMap((d): ReadonlyArray<Event> => {
    const mine = notes.filter((n) => n.planId === d.planId)
    const asked = questions.filter((q) => q.planId === d.planId)
    return [
      d.produced,
      ...mine.map((n): Event => ({ _tag: "NoteRecorded", ...n, sessionId: to.sessionId, user: to.user, questionId: null })),
      ...asked.map((q): Event => ({ _tag: "QuestionParked", ...q, sessionId: to.sessionId, user: to.user })),
      ...instructionsOf(d),
      { _tag: "PlanApplied", planId: d.planId, sessionId: to.sessionId, noteIds: mine.map((n) => n.noteId), questionIds: asked.map((q) => q.questionId), warnings: d.warnings }
    ]
  })
  const withdrawn: Array<Event> = state.openFailedQuestions.map((questionId) => ({
    _tag: "QuestionWithdrawn",
    questionId,
    sessionId: to.sessionId,
    reason: "replanned"
  }))
  const recorded = [...people.added, ...withdrawn, ...decided, ...after]
  // An import's questions wait on /api/questions: one reply per imported session would flood the chat.
  if (fromExport(state)) return Either.right(recorded)
  const unread = owed.flatMap((m) => {
    const media = state.media.get(m.id)
    return media === undefined ? [] : Media.unread(m.attachments, media.statuses)
  })
  const summary = queueReply(ids, to, ReplyText.planSummary({
    owners: ownersAfter(notes, after),
    questions: questions.length,
    instructions: drafted.flatMap(instructionsOf),
    warnings: drafted.flatMap((d) => d.warnings),
    unread
  }))
  return Either.right([...recorded, summary, ...questionReplies(ids, to, questions, textOf)])
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

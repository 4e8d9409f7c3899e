/** Builders for the events a session decision decides, with the fixed values of `fixtures.ts`. */
import { at, user } from "@verbatim/testkit/Given"
import type { Candidate, DirectiveCut, Owner, PlanWarning, QuestionReason } from "../../src/Decision.js"
import type { Event, PlanFailureReason } from "../../src/Events.js"
import type { Json } from "../../src/Json.js"
import { NoteId, ReplyId } from "../../src/Ids.js"
import { chat, messageId, personId, planId, questionId, sessionId, sources, usage } from "./fixtures.js"


export const planProduced = (
  id: string,
  raw: Json,
  fromSeq: number,
  toSeq: number,
  supersedes: ReadonlyArray<string> = []
): Event => ({
  _tag: "PlanProduced",
  planId: planId(id),
  sessionId,
  plan: raw,
  promptVersion: "v1",
  promptHash: "sha256:abc",
  model: "claude-test",
  usage,
  chunk: { fromSeq, toSeq },
  truncation: { contactsDropped: 0, cutSeq: null },
  supersedes: supersedes.map(planId),
  durationMs: 1200
})

export const noteRecorded = (
  id: string,
  owner: Owner,
  person: string | null,
  seqs: ReadonlyArray<number>,
  options: {
    readonly plan?: string | null
    readonly question?: string | null
    readonly directives?: ReadonlyArray<DirectiveCut>
    readonly mergedFrom?: number
  } = {}
): Event => ({
  _tag: "NoteRecorded",
  noteId: NoteId.make(id),
  sessionId,
  user,
  planId: options.plan === undefined ? planId("plan_1") : options.plan === null ? null : planId(options.plan),
  questionId: options.question == null ? null : questionId(options.question),
  owner,
  personId: person === null ? null : personId(person),
  sources: sources(...seqs),
  directives: options.directives ?? [],
  mergedFrom: options.mergedFrom ?? 1
})

export const questionParked = (
  id: string,
  plan: string | null,
  reason: QuestionReason,
  seqs: ReadonlyArray<number>,
  candidates: ReadonlyArray<Candidate> = []
): Event => ({
  _tag: "QuestionParked",
  questionId: questionId(id),
  sessionId,
  user,
  planId: plan === null ? null : planId(plan),
  reason,
  sources: sources(...seqs),
  candidates
})

export const planApplied = (
  id: string,
  notes: ReadonlyArray<string>,
  questions: ReadonlyArray<string> = [],
  warnings: ReadonlyArray<PlanWarning> = []
): Event => ({
  _tag: "PlanApplied",
  planId: planId(id),
  sessionId,
  noteIds: notes.map((n) => NoteId.make(n)),
  questionIds: questions.map(questionId),
  warnings
})

export const instruction = (plan: string, seq: number, kind: "message" | "directive", text: string): Event => ({
  _tag: "InstructionRecorded",
  sessionId,
  planId: planId(plan),
  messageId: messageId(seq),
  seq,
  kind,
  text
})

export const personAdded = (id: string, name: string): Event => ({ _tag: "PersonAdded", personId: personId(id), user, name })

export const planFailed = (reason: PlanFailureReason, attempt: number, detail: string): Event => ({
  _tag: "PlanFailed",
  sessionId,
  reason,
  attempt,
  detail
})

export const questionAnswered = (id: string, answer: Owner, seconds = 900): Event => ({
  _tag: "QuestionAnswered",
  questionId: questionId(id),
  sessionId,
  answer,
  answeredAt: at(seconds)
})

export const questionWithdrawn = (id: string): Event => ({ _tag: "QuestionWithdrawn", questionId: questionId(id), sessionId, reason: "replanned" })

export const replyQueued = (
  id: string,
  text: string,
  buttons: ReadonlyArray<{ readonly label: string; readonly data: string }> = [],
  question: string | null = null
): Event => ({
  _tag: "ReplyQueued",
  replyId: ReplyId.make(id),
  user,
  provider: "telegram",
  chat,
  text,
  buttons,
  questionId: question === null ? null : questionId(question)
})

export const directive = (seq: number, text: string): DirectiveCut => ({ messageId: messageId(seq), seq, text })

/** The words of the reply that parks messages after a failed plan. */
export const failedReply = "I could not sort these messages yet; they are kept safe and will be filed when planning works again."

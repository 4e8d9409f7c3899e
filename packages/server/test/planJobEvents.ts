/**
 * The events planning records for the plan job harness's one session, built whole (ids and all)
 * so a test compares every field: a partial match would pass with a field lost.
 */
import type { DirectiveCut, Owner } from "@verbatim/domain/Decision"
import * as Events from "@verbatim/domain/Events"
import { MessageId, NoteId, PersonId, PlanId, QuestionId, ReplyId, SessionId, UserId } from "@verbatim/domain/Ids"
import { ReplyQueued } from "@verbatim/domain/ReplyEvents"
import type { Json } from "@verbatim/domain/Json"
import * as ReplyText from "@verbatim/domain/ReplyText"

const sessionId = SessionId.make("telegram:100000001:100000001:1")
const user = UserId.make("telegram:100000001")

/** Message `n` of the harness's sender (`text(n, …)`) at position `seq` of the session. */
export const source = (n: number, seq: number) => ({ messageId: MessageId.make(`telegram:100000001:${n}`), seq })

/** A directive cut from message `n` at `seq`. */
export const cut = (n: number, seq: number, text: string): DirectiveCut => ({ ...source(n, seq), text })

/** The planner's prompt as packaged (`v1`), by its hash. */
const prompt = { promptVersion: "v1", promptHash: "e42a90e2d95cd21d4aba6e4c815073310cd59d243cb582207879d7561707459d" }

export const planFailed = (reason: Events.PlanFailureReason, attempt: number, detail: string) =>
  Events.PlanFailed.make({ sessionId, reason, attempt, detail })

/** The session's messages (the three of the plan job tests unless given) parked as a question after a failure. */
export const parkedAsFailed = (questionId: string, sources = [source(1, 1), source(2, 2), source(3, 3)]) =>
  Events.QuestionParked.make({
    questionId: QuestionId.make(questionId),
    sessionId,
    user,
    planId: null,
    reason: "failed",
    sources,
    candidates: []
  })

export const replyQueued = (replyId: string, text: string) =>
  ReplyQueued.make({ replyId: ReplyId.make(replyId), user, provider: "telegram", chat: "100000001", text, buttons: [], questionId: null })

/** What the user is told when their messages are parked by a failure. */
export const failedTold = ReplyText.questionText("failed", [])

export const personAdded = (personId: string, name: string) =>
  Events.PersonAdded.make({ personId: PersonId.make(personId), user, name })

export const questionWithdrawn = (questionId: string) =>
  Events.QuestionWithdrawn.make({ questionId: QuestionId.make(questionId), sessionId, reason: "replanned" })

/** A plan of the fake model (`claude-test`) over seqs `fromSeq`..`toSeq`, timed under a stopped clock (0 ms). */
export const planProduced = (
  planId: string,
  plan: Json,
  chunk: { readonly fromSeq: number; readonly toSeq: number },
  tokens: { readonly inputTokens: number; readonly outputTokens: number } = { inputTokens: 0, outputTokens: 0 }
) =>
  Events.PlanProduced.make({
    planId: PlanId.make(planId),
    sessionId,
    plan,
    ...prompt,
    model: "claude-test",
    usage: { ...tokens, cacheReadTokens: 0, cacheWriteTokens: 0 },
    chunk,
    truncation: { contactsDropped: 0, cutSeq: null },
    supersedes: [],
    durationMs: 0
  })

export const noteRecorded = (
  noteId: string,
  planId: string,
  filed: { readonly owner: Owner; readonly personId: string | null },
  sources: ReadonlyArray<ReturnType<typeof source>>,
  directives: ReadonlyArray<DirectiveCut> = []
) =>
  Events.NoteRecorded.make({
    noteId: NoteId.make(noteId),
    sessionId,
    user,
    planId: PlanId.make(planId),
    questionId: null,
    owner: filed.owner,
    personId: filed.personId === null ? null : PersonId.make(filed.personId),
    sources,
    directives,
    mergedFrom: 1
  })

/** Filed under a person the plan named by name only. */
export const toPerson = (personId: string, name: string) => ({ owner: { _tag: "Person" as const, contactId: null, name }, personId })

/** Filed as the sender's own notes. */
export const unattached = { owner: { _tag: "Unattached" as const }, personId: null }

export const directiveRecorded = (planId: string, directive: DirectiveCut) =>
  Events.InstructionRecorded.make({
    sessionId,
    planId: PlanId.make(planId),
    messageId: directive.messageId,
    seq: directive.seq,
    kind: "directive",
    text: directive.text
  })

export const planApplied = (planId: string, noteIds: ReadonlyArray<string>) =>
  Events.PlanApplied.make({ planId: PlanId.make(planId), sessionId, noteIds: noteIds.map((id) => NoteId.make(id)), questionIds: [], warnings: [] })

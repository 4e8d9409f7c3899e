/**
 * Given/when/then for the event store: record some history, act, then read the log or the
 * read models back. Event builders fill every field with fixed values so tests are exact.
 */
import type { Event } from "@verbatim/domain/Events"
import { MessageId, NoteId, PersonId, PlanId, QuestionId, ReplyId, SessionId, UserId } from "@verbatim/domain/Ids"
import type { Provider } from "@verbatim/domain/Ids"
import { makeInboundMessage } from "@verbatim/domain/Message"
import { type Attachment, noExtras } from "@verbatim/domain/Attachment"
import type { MessageKind } from "@verbatim/domain/Message"
import { EventStore } from "@verbatim/projections/EventStore"
import type { AppendResult } from "@verbatim/projections/EventStore"
import { Effect } from "effect"
import { at } from "./internal/at.js"

export { at } from "./internal/at.js"

export const user = UserId.make("telegram:100000001")

/** The stream a session's events go to. */
export const sessionStream = (sessionId: string) => `session-${sessionId}`

export const sessionOpened = (sessionId: string): Event => ({
  _tag: "SessionOpened",
  sessionId: SessionId.make(sessionId),
  user,
  provider: "telegram",
  chat: "100000001",
  openedAt: at(0)
})

/** A message `seq` of a session; its id is `<session>/<seq>` and its provider id `p-<session>-<seq>`. */
export const messageReceived = (
  sessionId: string,
  seq: number,
  text: string,
  options: {
    readonly kind?: MessageKind
    readonly provider?: Provider
    readonly attachments?: ReadonlyArray<Attachment>
    readonly forwardedFrom?: string
  } = {}
): Event => ({
  _tag: "MessageReceived",
  message: makeInboundMessage({
    id: MessageId.make(`${sessionId}/${seq}`),
    sessionId: SessionId.make(sessionId),
    seq,
    provider: options.provider ?? "telegram",
    providerMessageId: `p-${sessionId}-${seq}`,
    sender: user,
    chat: "100000001",
    text,
    kind: options.kind ?? "text",
    forwardedFrom: options.forwardedFrom ?? null,
    replyTo: null,
    ...noExtras,
    attachments: options.attachments ?? [],
    receivedAt: at(seq)
  })
})

export const messageEdited = (sessionId: string, seq: number, text: string, seconds: number): Event => ({
  _tag: "MessageEdited",
  messageId: MessageId.make(`${sessionId}/${seq}`),
  sessionId: SessionId.make(sessionId),
  text,
  links: [],
  editedAt: at(seconds)
})

export { mediaFailed, mediaFetched, mediaTranscribed } from "./GivenMedia.js"

export const sessionClosed = (sessionId: string, messageCount: number): Event => ({
  _tag: "SessionClosed",
  sessionId: SessionId.make(sessionId),
  reason: "idle",
  messageCount,
  closedAt: at(600)
})

/** A plan of the session up to `toSeq`; with `supersedes`, a promoted replay replacing those plans. */
export const planProduced = (sessionId: string, planId: string, toSeq: number, supersedes: ReadonlyArray<string> = []): Event => ({
  _tag: "PlanProduced",
  planId: PlanId.make(planId),
  sessionId: SessionId.make(sessionId),
  plan: { people: [], unattached: [], unclear: [], botMessages: [] },
  promptVersion: "v1",
  promptHash: "sha256:abc",
  model: "claude-test",
  usage: { inputTokens: 120, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0 },
  chunk: { fromSeq: 1, toSeq },
  truncation: { contactsDropped: 0, cutSeq: null },
  supersedes: supersedes.map((id) => PlanId.make(id)),
  durationMs: 1200
})

/** The plan's decisions are all recorded. */
export const planApplied = (sessionId: string, planId: string): Event => ({
  _tag: "PlanApplied",
  planId: PlanId.make(planId),
  sessionId: SessionId.make(sessionId),
  noteIds: [],
  questionIds: [],
  warnings: []
})

export const personAdded = (personId: string, name: string): Event => ({
  _tag: "PersonAdded",
  personId: PersonId.make(personId),
  user,
  name
})

const sourcesOf = (sessionId: string, seqs: ReadonlyArray<number>) =>
  seqs.map((seq) => ({ messageId: MessageId.make(`${sessionId}/${seq}`), seq }))

/** A note about a person over some seqs of a session, with directives as `[seq, text]`. */
export const noteRecorded = (
  sessionId: string,
  noteId: string,
  seqs: ReadonlyArray<number>,
  options: {
    readonly planId?: string | null
    readonly questionId?: string | null
    readonly person?: { readonly personId: string; readonly name: string } | null
    readonly directives?: ReadonlyArray<readonly [number, string]>
    readonly mergedFrom?: number
  } = {}
): Event => ({
  _tag: "NoteRecorded",
  noteId: NoteId.make(noteId),
  sessionId: SessionId.make(sessionId),
  user,
  planId: options.planId === undefined ? PlanId.make("plan-1") : options.planId === null ? null : PlanId.make(options.planId),
  questionId: options.questionId ? QuestionId.make(options.questionId) : null,
  owner: options.person
    ? { _tag: "Person", contactId: options.person.personId, name: options.person.name }
    : { _tag: "Unattached" },
  personId: options.person ? PersonId.make(options.person.personId) : null,
  sources: sourcesOf(sessionId, seqs),
  directives: (options.directives ?? []).map(([seq, text]) => ({
    messageId: MessageId.make(`${sessionId}/${seq}`),
    seq,
    text
  })),
  mergedFrom: options.mergedFrom ?? 1
})

export const questionParked = (sessionId: string, questionId: string, seqs: ReadonlyArray<number>, planId = "plan-1"): Event => ({
  _tag: "QuestionParked",
  questionId: QuestionId.make(questionId),
  sessionId: SessionId.make(sessionId),
  user,
  planId: PlanId.make(planId),
  reason: "unclear",
  sources: sourcesOf(sessionId, seqs),
  candidates: [{ _tag: "Person", contactId: null, name: "Ana" }, { _tag: "Unattached" }]
})

export const questionAnswered = (sessionId: string, questionId: string): Event => ({
  _tag: "QuestionAnswered",
  questionId: QuestionId.make(questionId),
  sessionId: SessionId.make(sessionId),
  answer: { _tag: "Person", contactId: null, name: "Ana" },
  answeredAt: at(900)
})

export const instructionRecorded = (
  sessionId: string,
  seq: number,
  text: string,
  kind: "message" | "directive" = "message",
  planId = "plan-1"
): Event => ({
  _tag: "InstructionRecorded",
  sessionId: SessionId.make(sessionId),
  planId: PlanId.make(planId),
  messageId: MessageId.make(`${sessionId}/${seq}`),
  seq,
  kind,
  text
})

export const replyQueued = (replyId: string, text: string): Event => ({
  _tag: "ReplyQueued",
  replyId: ReplyId.make(replyId),
  user,
  provider: "telegram",
  chat: "100000001",
  text,
  buttons: [],
  questionId: null
})

/** Given: append each `[stream, events]` in order, whatever the streams' versions. */
export const given = (...history: ReadonlyArray<readonly [string, ReadonlyArray<Event>]>) =>
  Effect.gen(function*() {
    const store = yield* EventStore
    const results: Array<AppendResult> = []
    for (const [stream, events] of history) results.push(yield* store.append(stream, "any", events))
    return results
  })

/** Then: the events of a stream, without log positions or times. */
export const thenStream = (stream: string) =>
  Effect.flatMap(EventStore, (store) =>
    Effect.map(store.readStream(stream), (recorded) => recorded.map((r) => ({ version: r.version, event: r.event }))))

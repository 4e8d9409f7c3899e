/** The accounting of a session: where every message went, so nothing captured is ever silently lost. */
import { SqlClient } from "@effect/sql/SqlClient"
import type { Disposition, SessionAccounting } from "@verbatim/domain/ApiResponses"
import type { MessageId, NoteId, QuestionId, SessionId, UserId } from "@verbatim/domain/Ids"
import { Effect, Option } from "effect"

/** Exactly one place a message is in now; the `dispositions` list also shows directives cut from it. */
export type PrimaryDisposition =
  | Disposition
  | { readonly _tag: "AwaitingPlan" }
  | { readonly _tag: "AwaitingTranscription" }

/** The API's accounting, with each message's single current disposition added. */
export interface SessionAccountingView extends SessionAccounting {
  readonly messages: ReadonlyArray<SessionAccounting["messages"][number] & { readonly disposition: PrimaryDisposition }>
}

const primaryOf = (kind: string, dispositions: ReadonlyArray<Disposition>): PrimaryDisposition =>
  dispositions.find((d) => d._tag === "InNote") ??
    dispositions.find((d) => d._tag === "InQuestion") ??
    dispositions.find((d) => d._tag === "Instruction" && d.kind === "message") ??
    (kind === "media-without-text" ? { _tag: "AwaitingTranscription" } : { _tag: "AwaitingPlan" })

/** The accounting of one session, or none when no such session exists. */
export const sessionAccounting = Effect.fn("ReadModel.sessionAccounting")(function*(sessionId: string) {
  const sql = yield* SqlClient
  const [session] = yield* sql<{ user_id: string; closed_at: string | null; last_plan_failure: string | null; applied: number | string }>`
    SELECT s.user_id, s.closed_at, s.last_plan_failure,
      (SELECT COUNT(*) FROM plans p WHERE p.session_id = s.session_id AND p.applied = 1) AS applied
    FROM sessions s WHERE s.session_id = ${sessionId}`
  if (session === undefined) return Option.none<SessionAccountingView>()
  const messages = yield* sql<{ message_id: string; seq: number; kind: string }>`
    SELECT message_id, seq, kind FROM messages WHERE session_id = ${sessionId} ORDER BY seq`
  const inNotes = yield* sql<{ message_id: string; note_id: string }>`SELECT s.message_id, s.note_id
    FROM note_sources s JOIN messages m ON m.message_id = s.message_id WHERE m.session_id = ${sessionId}
    ORDER BY s.note_id`
  const inQuestions = yield* sql<{ message_id: string; question_id: string }>`SELECT qm.message_id, qm.question_id
    FROM question_messages qm JOIN questions q ON q.question_id = qm.question_id
    WHERE q.session_id = ${sessionId} AND q.status = 'open' ORDER BY qm.question_id`
  const instructions = yield* sql<{ message_id: string; kind: "message" | "directive"; text: string }>`
    SELECT message_id, kind, text FROM instructions WHERE session_id = ${sessionId} ORDER BY position`
  const dispositionsOf = (messageId: string): Array<Disposition> => [
    ...inNotes.filter((r) => r.message_id === messageId).map((r) => ({ _tag: "InNote" as const, noteId: r.note_id as NoteId })),
    ...inQuestions.filter((r) => r.message_id === messageId).map((r) => ({
      _tag: "InQuestion" as const,
      questionId: r.question_id as QuestionId
    })),
    ...instructions.filter((r) => r.message_id === messageId).map((r) => ({
      _tag: "Instruction" as const,
      kind: r.kind,
      text: r.text
    }))
  ]
  const status = session.closed_at === null
    ? "open"
    : Number(session.applied) > 0
    ? "planned"
    : session.last_plan_failure !== null
    ? "failed"
    : "closed"
  return Option.some<SessionAccountingView>({
    sessionId: sessionId as SessionId,
    user: session.user_id as UserId,
    status,
    messages: messages.map((m) => {
      const dispositions = dispositionsOf(m.message_id)
      return {
        messageId: m.message_id as MessageId,
        seq: Number(m.seq),
        dispositions,
        disposition: primaryOf(m.kind, dispositions)
      }
    })
  })
})

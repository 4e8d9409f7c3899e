/**
 * Erasing messages of a session at their user's request: the messages not erased yet lose their
 * words (`MessagesErased`), with the notes and questions that held them and the replies that quoted
 * them named for the read model. Erasing again erases nothing more and is refused as unchanged.
 */
import { Either } from "effect"
import type { MessageId } from "../Ids.js"
import { type Command, type Decision, rejected } from "./Commands.js"
import type { SessionState } from "./State.js"

export const decideErase = (state: SessionState, command: Command & { readonly _tag: "Erase" }): Decision => {
  if (state.sessionId === null || state.user === null) return Either.left(rejected("no-session"))
  const wanted = new Set<MessageId>(command.messageIds)
  const ids = state.messages.filter((m) => wanted.has(m.id) && !state.erased.has(m.id)).map((m) => m.id)
  if (ids.length === 0) return Either.left(rejected("unchanged", "those messages are erased already"))
  const gone = new Set(ids)
  const holds = (sources: ReadonlyArray<{ readonly messageId: MessageId }>) => sources.some((s) => gone.has(s.messageId))
  return Either.right([{
    _tag: "MessagesErased",
    sessionId: state.sessionId,
    user: state.user,
    forgetId: command.forgetId,
    messageIds: ids,
    notes: [...state.notes.values()].filter((n) => holds(n.sources)).map((n) => n.noteId),
    questions: [...state.questions.values()].filter((q) => holds(q.sources)).map((q) => q.questionId),
    replies: command.replies,
    erasedAt: command.now
  }])
}

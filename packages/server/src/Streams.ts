/** Stream names in the event log. */
import type { ReplyId, SessionId } from "@verbatim/domain/Ids"

/** What every session stream's name starts with (queries join on it). */
export const sessionStreamPrefix = "session-"

/** Everything about one session: its messages, edits, plans, notes, questions and answers. */
export const sessionStream = (sessionId: SessionId): string => `${sessionStreamPrefix}${sessionId}`

/** One outgoing reply's life: queued, sent or failed. */
export const replyStream = (replyId: ReplyId): string => `reply-${replyId}`

/** Stream names in the event log. */
import type { ReplyId, SessionId } from "@verbatim/domain/Ids"

/** Everything about one session: its messages, edits, plans, notes, questions and answers. */
export const sessionStream = (sessionId: SessionId): string => `session-${sessionId}`

/** One outgoing reply's life: queued, sent or failed. */
export const replyStream = (replyId: ReplyId): string => `reply-${replyId}`

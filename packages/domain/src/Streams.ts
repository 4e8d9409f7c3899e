/** Stream names in the event log. */
import type { ReplyId, SessionId, UserId } from "./Ids.js"

/** What every session stream's name starts with (queries join on it). */
export const sessionStreamPrefix = "session-"

/** Everything about one session: its messages, edits, plans, notes, questions and answers. */
export const sessionStream = (sessionId: SessionId): string => `${sessionStreamPrefix}${sessionId}`

/** One outgoing reply's life: queued, sent or failed. */
export const replyStream = (replyId: ReplyId): string => `reply-${replyId}`

/** A user's people as curated: renames and merges (people are added where a session names them). */
export const peopleStream = (user: UserId): string => `people-${user}`

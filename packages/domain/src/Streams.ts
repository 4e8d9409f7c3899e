/** Stream names in the event log. */
import type { AskId, PlanId, ReminderId, ReplyId, SessionId, UserId } from "./Ids.js"

/** What every session stream's name starts with (queries join on it). */
export const sessionStreamPrefix = "session-"

/** Everything about one session: its messages, edits, plans, notes, questions and answers. */
export const sessionStream = (sessionId: SessionId): string => `${sessionStreamPrefix}${sessionId}`

/** One outgoing reply's life: queued, sent or failed. */
export const replyStream = (replyId: ReplyId): string => `reply-${replyId}`

/** A user's people as curated: renames and merges (people are added where a session names them). */
export const peopleStream = (user: UserId): string => `people-${user}`

/** One sign-in link's use, written once (`nonce` is the link's). */
export const signInStream = (nonce: string): string => `web-signin-${nonce}`

/** A web subject's sign-outs (`subject`: a user id, or the operator), read when its cookie is shown. */
export const signOutStream = (subject: string): string => `web-signout-${subject}`

/** One reminder's own stream. */
export const reminderStream = (reminderId: ReminderId): string => `reminder-${reminderId}`

/** The stream that takes a plan's reminders, once. */
export const planRemindersStream = (planId: PlanId): string => `plan-reminders-${planId}`

/** A user's time zone setting. */
export const zoneStream = (user: UserId): string => `zone-${user}`

/** What the operator read of a user's data (`OperatorRead`, under VERBATIM_OPERATOR_READS=audited), shown to the user. */
export const operatorReadsStream = (user: UserId): string => `operator-reads-${user}`

/** One question asked of a user's notes: posed, then answered or failed. */
export const askStream = (askId: AskId): string => `ask-${askId}`

/** What a user asked to forget (`Forgotten`), one stream per user. */
export const forgetStream = (user: UserId): string => `forget-${user}`

/**
 * A promoted replay re-derives a session's reminders. Those the replaced plans set that no live
 * plan asks for any more are cancelled (`replanned`), and the user is told, in their words; those
 * the user already acted on (done, snoozed, rescheduled, answered) stay as the user left them (the
 * decider refuses to take them back). One held for WhatsApp's window is cancelled as a scheduled one
 * is: it has not reached the user. Delivered ones are left as they are: the user has them.
 */
import type { PlanId, Provider, ReminderId, SessionId, UserId } from "@verbatim/domain/Ids"
import { ReplyId } from "@verbatim/domain/Ids"
import { ReminderCommand } from "@verbatim/domain/Reminders/Decide"
import { replannedText } from "@verbatim/domain/Reminders/Text"
import { ReminderBook } from "@verbatim/projections/ReminderBook"
import { DateTime, Effect } from "effect"
import * as Replies from "../Replies.js"
import { act } from "./Actions.js"

/** Cancel what the plans a promoted replay replaced set and the live plans do not; how many were cancelled. */
export const retire = Effect.fn("Reminders.retire")(function*(taken: {
  readonly planId: PlanId
  readonly sessionId: SessionId
  readonly user: UserId
  readonly provider: Provider
  readonly chat: string
  /** The reminders the session's live plans set or ask about. */
  readonly live: ReadonlySet<ReminderId>
  readonly livePlans: ReadonlySet<PlanId>
}) {
  const now = yield* DateTime.now
  const rows = yield* Effect.flatMap(ReminderBook, (book) => book.ofSession(taken.sessionId))
  const gone: Array<string> = []
  for (const row of rows) {
    if (taken.livePlans.has(row.planId) || taken.live.has(row.reminderId)) continue
    if (row.status !== "scheduled" && row.status !== "asking" && row.status !== "held") continue
    const done = yield* act(row.reminderId, ReminderCommand.Cancel({ by: row.user, now, reason: "replanned" })).pipe(
      Effect.catchTag("Rejected", () => Effect.succeed(null))
    )
    if (done?._tag === "Appended" && done.events.length > 0) gone.push(row.quote)
  }
  if (gone.length > 0) {
    yield* Replies.queue({
      replyId: ReplyId.make(`reminders-replanned:${taken.planId}`),
      user: taken.user,
      provider: taken.provider,
      chat: taken.chat,
      text: replannedText(gone),
      buttons: [],
      questionId: null
    })
  }
  return gone.length
})

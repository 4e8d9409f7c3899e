/**
 * The asker confirming that a quote answers their question: a command on the question's stream,
 * once per quote, a label that `replay asks` scores a new prompt against.
 */
import { AskCommand, askDecider } from "@verbatim/domain/Ask/Decide"
import type { AskId, MessageId, UserId } from "@verbatim/domain/Ids"
import { askStream } from "@verbatim/domain/Streams"
import { DateTime, Effect } from "effect"
import * as Runner from "../Runner.js"

/** Confirm one quote of an answer as `user`'s; what happened, in words. */
export const confirmQuote = Effect.fn("Ask.confirmQuote")(function*(
  askId: AskId,
  quote: { readonly messageId: MessageId; readonly start: number; readonly end: number },
  user: UserId
) {
  const now = yield* DateTime.now
  return yield* Runner.run(askDecider, askStream(askId), () =>
    Effect.succeed(AskCommand.Confirm({ confirmed: { askId, user, ...quote, confirmedAt: now } })), { keep: false }).pipe(
    Effect.as("Noted: that quote answers the question."),
    Effect.catchTag("Rejected", (rejection) => Effect.succeed(`Nothing changed: ${rejection.detail}.`))
  )
})

/**
 * The asks projection; owns `asks`: each question asked of a user's notes, where it stands
 * (posed, answered, failed), the quotes its answer kept (JSON: message and characters) and how
 * many the model gave that were dropped, or why it failed; the quotes its asker confirmed answer
 * it; and, for one asked in a chat, whether its reply is still owed (finished, but the reply not
 * yet queued).
 */
import { quoteKey } from "@verbatim/domain/Ask/Decide"
import { askOfReply } from "@verbatim/domain/Ask/Events"
import { absurd } from "effect"
import { patch, type Step, stepwise } from "./Projection.js"
import type { Batch } from "./Rows.js"

/** A question asked in a chat owes its reply once it is finished, until the reply is queued (always after the outcome). */
const owed = (batch: Batch, askId: string) => ({
  owed_reply: batch.get("asks", askId)?.via === "chat" ? 1 : 0
})

/** The confirmed quotes with one more, in the order confirmed (the decider confirms each quote once). */
const confirming = (confirmed: string | null | undefined, key: string): string => {
  const keys: ReadonlyArray<string> = confirmed == null ? [] : JSON.parse(confirmed)
  return JSON.stringify(keys.includes(key) ? keys : [...keys, key])
}

export const Asks = stepwise<"AskPosed" | "AskAnswered" | "AskFailed" | "AskQuoteConfirmed" | "ReplyQueued">(
  "asks",
  ["AskPosed", "AskAnswered", "AskFailed", "AskQuoteConfirmed", "ReplyQueued"],
  (event, position): Step => {
    switch (event._tag) {
      case "AskPosed":
        return {
          wants: (keys) => keys.add("asks", "ask_id", event.askId),
          evolve: (batch) => {
            if (!batch.has("asks", event.askId)) {
              batch.put("asks", {
                ask_id: event.askId,
                user_id: event.user,
                question: event.question,
                via: event.via,
                provider: event.provider,
                chat: event.chat,
                posted_at: event.postedAt,
                status: "posed",
                quotes: null,
                dropped: null,
                failure: null,
                finished_at: null,
                owed_reply: 0,
                position,
                confirmed: null
              })
            }
          }
        }
      case "AskAnswered":
        return {
          wants: (keys) => keys.add("asks", "ask_id", event.askId),
          evolve: (batch) =>
            patch(batch, "asks", event.askId, {
              status: "answered",
              quotes: JSON.stringify(event.kept),
              dropped: event.dropped.length,
              finished_at: event.answeredAt,
              ...owed(batch, event.askId)
            })
        }
      case "AskFailed":
        return {
          wants: (keys) => keys.add("asks", "ask_id", event.askId),
          evolve: (batch) =>
            patch(batch, "asks", event.askId, {
              status: "failed",
              failure: `${event.reason}: ${event.message}`,
              finished_at: event.failedAt,
              ...owed(batch, event.askId)
            })
        }
      case "AskQuoteConfirmed":
        return {
          wants: (keys) => keys.add("asks", "ask_id", event.askId),
          evolve: (batch) =>
            patch(batch, "asks", event.askId, { confirmed: confirming(batch.get("asks", event.askId)?.confirmed, quoteKey(event)) })
        }
      case "ReplyQueued": {
        const askId = askOfReply(event.replyId)
        return {
          wants: (keys) => {
            if (askId !== null) keys.add("asks", "ask_id", askId)
          },
          evolve: (batch) => {
            if (askId !== null) patch(batch, "asks", askId, { owed_reply: 0 })
          }
        }
      }
      default:
        return absurd(event)
    }
  }
)

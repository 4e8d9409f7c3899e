/** The replies projection; owns `replies`: each reply queued to a user and how its delivery went. */
import { absurd } from "effect"
import type { Projection } from "./Projection.js"
import { patch } from "./Projection.js"

/** A row per reply: queued, then sent, retried or failed for good. */
export const Replies: Projection<"ReplyQueued" | "ReplySent" | "ReplyFailed"> = {
  name: "replies",
  canHandle: ["ReplyQueued", "ReplySent", "ReplyFailed"],
  wants(event, _position, keys) {
    keys.add("replies", "reply_id", event.replyId)
  },
  evolve(batch, { event, position }) {
    switch (event._tag) {
      case "ReplyQueued":
        if (!batch.has("replies", event.replyId)) {
          batch.put("replies", {
            reply_id: event.replyId,
            user_id: event.user,
            provider: event.provider,
            chat: event.chat,
            text: event.text,
            buttons: JSON.stringify(event.buttons),
            template: event.template === undefined ? null : JSON.stringify(event.template),
            question_id: event.questionId,
            status: "queued",
            attempts: 0,
            provider_message_id: null,
            sent_at: null,
            last_error: null,
            position
          })
        }
        return
      case "ReplySent":
        return patch(batch, "replies", event.replyId, {
          status: "sent",
          provider_message_id: event.providerMessageId,
          sent_at: event.sentAt
        })
      case "ReplyFailed": {
        const reply = batch.get("replies", event.replyId)
        if (reply && reply.status !== "sent") {
          batch.update("replies", reply, { status: event.final ? "failed" : "queued", attempts: event.attempt, last_error: event.detail })
        }
        return
      }
      default:
        return absurd(event)
    }
  }
}

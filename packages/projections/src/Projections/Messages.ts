/** The messages projection; owns `messages` and `message_edits`: each message's current text and its edits. */
import { DateTime } from "effect"
import type { Projection } from "./Projection.js"

const iso = DateTime.formatIso

/** A row per message as it now reads, and a row per edit with the text it replaced. */
export const Messages: Projection<"MessageReceived" | "MessageEdited"> = {
  name: "messages",
  canHandle: ["MessageReceived", "MessageEdited"],
  wants(event, _position, keys) {
    switch (event._tag) {
      case "MessageReceived":
        return keys.add("messages", "message_id", event.message.id)
      case "MessageEdited":
        keys.add("messages", "message_id", event.messageId)
        return keys.add("message_edits", "message_id", event.messageId)
    }
  },
  evolve(batch, { event, position }) {
    switch (event._tag) {
      case "MessageReceived": {
        const m = event.message
        if (!batch.has("messages", m.id)) {
          batch.put("messages", {
            message_id: m.id,
            session_id: m.sessionId,
            seq: m.seq,
            provider: m.provider,
            provider_message_id: m.providerMessageId,
            sender: m.sender,
            chat: m.chat,
            kind: m.kind,
            text: m.text,
            forwarded_from: m.forwardedFrom,
            reply_to: m.replyTo,
            received_at: iso(m.receivedAt),
            edited_at: null,
            revisions: 1
          })
        }
        return
      }
      case "MessageEdited": {
        const message = batch.get("messages", event.messageId)
        if (!message || batch.has("message_edits", event.messageId, position)) return
        const editedAt = iso(event.editedAt)
        batch.put("message_edits", {
          message_id: event.messageId,
          position,
          previous_text: message["text"],
          text: event.text,
          edited_at: editedAt
        })
        batch.update("messages", message, { text: event.text, edited_at: editedAt, revisions: Number(message["revisions"]) + 1 })
        return
      }
    }
  }
}

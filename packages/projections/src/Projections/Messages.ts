/**
 * The messages projection; owns `messages`, `message_edits` and `message_media`: each message's
 * current readable text, its edits, and its attachments with what was fetched and read from them.
 * `text` is what a note reads (the sender's words, then any derived lines, see `Media.readable`);
 * `sender_text` keeps the sender's own words of a message with attachments (null for the others);
 * `sent_at` is when the sender sent it (the provider's time, else the receipt's).
 */
import { absurd } from "effect"
import { applyMedia, attachmentRows, type MediaEvent, readableOf } from "./MessageMedia.js"
import { type Step, stepwise } from "./Projection.js"
import type { Batch, Row } from "./Rows.js"

/** Recompose a message's readable text from its sender's text and its attachments' rows. */
const recompose = (batch: Batch, message: Row, senderText: string): Row => {
  const text = readableOf(senderText, batch.where("message_media", "message_id", message.message_id)).text
  return { text, sender_text: senderText }
}

type Handled = "MessageReceived" | "MessageEdited" | MediaEvent["_tag"]

/** A row per message as it now reads, a row per edit with the text it replaced, a row per attachment. */
export const Messages = stepwise<Handled>(
  "messages",
  ["MessageReceived", "MessageEdited", "MediaFetched", "MediaFailed", "MediaTranscribed"],
  (event, position): Step => {
    switch (event._tag) {
      case "MessageReceived": {
        const m = event.message
        return {
          wants: (keys) => {
            keys.add("message_media", "message_id", m.id)
            keys.add("messages", "message_id", m.id)
          },
          evolve: (batch) => {
            if (batch.has("messages", m.id)) return
            const rows = attachmentRows(m, position)
            for (const row of rows) batch.put("message_media", row)
            batch.put("messages", {
              message_id: m.id,
              session_id: m.sessionId,
              seq: m.seq,
              provider: m.provider,
              provider_message_id: m.providerMessageId,
              sender: m.sender,
              chat: m.chat,
              kind: m.kind,
              text: rows.length === 0 ? m.text : readableOf(m.text, rows).text,
              sender_text: rows.length === 0 ? null : m.text,
              forwarded_from: m.forwardedFrom,
              reply_to: m.replyTo,
              received_at: m.receivedAt,
              sent_at: m.sentAt ?? m.receivedAt,
              edited_at: null,
              revisions: 1,
              erased_at: null
            })
          }
        }
      }
      case "MessageEdited":
        return {
          wants: (keys) => {
            keys.add("messages", "message_id", event.messageId)
            keys.add("message_media", "message_id", event.messageId)
            keys.add("message_edits", "message_id", event.messageId)
          },
          evolve: (batch) => {
            const message = batch.get("messages", event.messageId)
            if (!message || batch.has("message_edits", event.messageId, position)) return
            const editedAt = event.editedAt
            const withMedia = message.sender_text != null
            batch.put("message_edits", {
              message_id: event.messageId,
              position,
              previous_text: withMedia ? message.sender_text : message.text,
              text: event.text,
              edited_at: editedAt
            })
            batch.update("messages", message, {
              ...(withMedia ? recompose(batch, message, event.text) : { text: event.text }),
              edited_at: editedAt,
              revisions: Number(message.revisions) + 1
            })
          }
        }
      case "MediaFetched":
      case "MediaFailed":
      case "MediaTranscribed":
        return {
          wants: (keys) => {
            keys.add("messages", "message_id", event.messageId)
            keys.add("message_media", "message_id", event.messageId)
          },
          evolve: (batch) => {
            const message = batch.get("messages", event.messageId)
            if (!message || message.sender_text == null || !applyMedia(batch, event, position)) return
            const changes = recompose(batch, message, String(message.sender_text))
            if (changes.text !== message.text) batch.update("messages", message, changes)
          }
        }
      default:
        return absurd(event)
    }
  }
)

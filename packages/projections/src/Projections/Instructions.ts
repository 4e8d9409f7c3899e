/** The instructions projection; owns `instructions`: what a plan filed as said to the bot rather than noted. */
import { absurd } from "effect"
import { isRetired } from "./Plans.js"
import type { MediaEvent } from "./MessageMedia.js"
import type { Projection } from "./Projection.js"

/**
 * A row per instruction. A whole message filed as one reads as its message now does, as a note's
 * body would, so it reads the text the messages projection (applied first) keeps current.
 */
export const Instructions: Projection<"InstructionRecorded" | "MessageEdited" | MediaEvent["_tag"] | "PlanProduced"> = {
  name: "instructions",
  canHandle: ["InstructionRecorded", "MessageEdited", "MediaFetched", "MediaFailed", "MediaTranscribed", "PlanProduced"],
  wants(event, position, keys) {
    switch (event._tag) {
      case "InstructionRecorded":
        keys.add("plans", "plan_id", event.planId)
        if (event.kind === "message") keys.add("messages", "message_id", event.messageId)
        return keys.add("instructions", "position", position)
      case "MessageEdited":
      case "MediaFetched":
      case "MediaFailed":
      case "MediaTranscribed":
        keys.add("messages", "message_id", event.messageId)
        return keys.add("instructions", "message_id", event.messageId)
      case "PlanProduced":
        for (const superseded of event.supersedes) keys.add("instructions", "plan_id", superseded)
        return
      default:
        return absurd(event)
    }
  },
  evolve(batch, { event, position }) {
    switch (event._tag) {
      case "InstructionRecorded":
        if (!isRetired(batch, event.planId) && !batch.has("instructions", position)) {
          batch.put("instructions", {
            position,
            session_id: event.sessionId,
            plan_id: event.planId,
            message_id: event.messageId,
            seq: event.seq,
            kind: event.kind,
            // A whole message reads as it does now: it may have been edited while it was planned.
            text: event.kind === "message" ? (batch.get("messages", event.messageId)?.text ?? event.text) : event.text
          })
        }
        return
      case "MessageEdited":
      case "MediaFetched":
      case "MediaFailed":
      case "MediaTranscribed": {
        // The message's current text, not the event's: an edit applied again must not undo a later one.
        const message = batch.get("messages", event.messageId)
        if (!message) return
        for (const instruction of batch.where("instructions", "message_id", event.messageId)) {
          if (instruction.kind === "message" && instruction.text !== message.text) {
            batch.update("instructions", instruction, { text: message.text })
          }
        }
        return
      }
      case "PlanProduced":
        for (const superseded of event.supersedes) {
          for (const instruction of batch.where("instructions", "plan_id", superseded)) batch.delete("instructions", instruction)
        }
        return
      default:
        return absurd(event)
    }
  }
}

/** The instructions projection; owns `instructions`: what a plan filed as said to the bot rather than noted. */
import { absurd } from "effect"
import { isRetired } from "./Plans.js"
import type { MediaEvent } from "./MessageMedia.js"
import { type Step, stepwise } from "./Projection.js"

/**
 * A row per instruction. A whole message filed as one reads as its message now does, as a note's
 * body would, so it reads the text the messages projection (applied first) keeps current.
 */
export const Instructions = stepwise<"InstructionRecorded" | "MessageEdited" | MediaEvent["_tag"] | "PlanProduced">(
  "instructions",
  ["InstructionRecorded", "MessageEdited", "MediaFetched", "MediaFailed", "MediaTranscribed", "PlanProduced"],
  (event, position): Step => {
    switch (event._tag) {
      case "InstructionRecorded":
        return {
          wants: (keys) => {
            keys.add("plans", "plan_id", event.planId)
            if (event.kind === "message") keys.add("messages", "message_id", event.messageId)
            keys.add("instructions", "position", position)
          },
          evolve: (batch) => {
            if (isRetired(batch, event.planId) || batch.has("instructions", position)) return
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
        }
      case "MessageEdited":
      case "MediaFetched":
      case "MediaFailed":
      case "MediaTranscribed":
        return {
          wants: (keys) => {
            keys.add("messages", "message_id", event.messageId)
            keys.add("instructions", "message_id", event.messageId)
          },
          evolve: (batch) => {
            // The message's current text, not the event's: an edit applied again must not undo a later one.
            const message = batch.get("messages", event.messageId)
            if (!message) return
            for (const instruction of batch.where("instructions", "message_id", event.messageId)) {
              if (instruction.kind === "message" && instruction.text !== message.text) {
                batch.update("instructions", instruction, { text: message.text })
              }
            }
          }
        }
      case "PlanProduced":
        return {
          wants: (keys) => {
            for (const superseded of event.supersedes) keys.add("instructions", "plan_id", superseded)
          },
          evolve: (batch) => {
            for (const superseded of event.supersedes) {
              for (const instruction of batch.where("instructions", "plan_id", superseded)) batch.delete("instructions", instruction)
            }
          }
        }
      default:
        return absurd(event)
    }
  }
)

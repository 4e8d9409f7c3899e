/** The sessions projection; owns `sessions`: each session's opening, closing and last planning failure. */
import { absurd } from "effect"
import type { Projection } from "./Projection.js"
import { patch } from "./Projection.js"

/** A row per session, with the outcome of its latest planning attempt. */
export const Sessions: Projection<"SessionOpened" | "SessionClosed" | "PlanProduced" | "PlanFailed"> = {
  name: "sessions",
  canHandle: ["SessionOpened", "SessionClosed", "PlanProduced", "PlanFailed"],
  wants(event, _position, keys) {
    keys.add("sessions", "session_id", event.sessionId)
  },
  evolve(batch, { event }) {
    switch (event._tag) {
      case "SessionOpened":
        if (!batch.has("sessions", event.sessionId)) {
          batch.put("sessions", {
            session_id: event.sessionId,
            user_id: event.user,
            provider: event.provider,
            chat: event.chat,
            opened_at: event.openedAt,
            closed_at: null,
            close_reason: null,
            message_count: null,
            last_plan_failure: null,
            applied_plans: 0
          })
        }
        return
      case "SessionClosed":
        return patch(batch, "sessions", event.sessionId, {
          closed_at: event.closedAt,
          close_reason: event.reason,
          message_count: event.messageCount
        })
      case "PlanProduced":
        return patch(batch, "sessions", event.sessionId, { last_plan_failure: null })
      case "PlanFailed":
        return patch(batch, "sessions", event.sessionId, { last_plan_failure: event.reason })
      default:
        return absurd(event)
    }
  }
}

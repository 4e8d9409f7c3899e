/**
 * The plans projection; owns `plans`: each model call's plan, whether it was applied, and which
 * plan a promoted replay put in its place; and keeps each session's count of applied plans.
 */
import { absurd } from "effect"
import { type Keys, type Step, stepwise } from "./Projection.js"
import type { Batch } from "./Rows.js"

/**
 * Whether an event of this plan belongs to a plan a promoted replay has replaced. Its notes,
 * questions and instructions then stay out of the read model (each projection retires its own
 * rows of it), including when its events are applied again.
 */
export const isRetired = (batch: Batch, planId: string | null): boolean =>
  planId !== null && batch.get("plans", planId)?.superseded_by != null

/** How many reminders a plan as the model sent it proposes (its `reminders`, when it is a list). */
const remindersIn = (plan: unknown): number => {
  const reminders = typeof plan === "object" && plan !== null ? (plan as { readonly reminders?: unknown }).reminders : undefined
  return Array.isArray(reminders) ? reminders.length : 0
}

/**
 * Keep the session's count of applied plans (`sessions.applied_plans`): a closed session with
 * none is owed planning, found through an index of those alone. Counted where `applied` flips,
 * so an event applied again counts nothing.
 */
const countApplied = (batch: Batch, sessionId: string, by: 1 | -1) => {
  const session = batch.get("sessions", sessionId)
  if (session) batch.update("sessions", session, { applied_plans: session.applied_plans + by })
}

/** A row per plan; a superseded plan keeps who superseded it, so it stays retired when replayed. */
export const Plans = stepwise<"PlanProduced" | "PlanApplied" | "RemindersTaken">(
  "plans",
  ["PlanProduced", "PlanApplied", "RemindersTaken"],
  (event, position): Step => {
    // Every event of a plan reads the plan's row and its session's.
    const own = (keys: Keys) => {
      keys.add("plans", "plan_id", event.planId)
      keys.add("sessions", "session_id", event.sessionId)
    }
    switch (event._tag) {
      case "PlanProduced":
        return {
          wants: (keys) => {
            own(keys)
            for (const superseded of event.supersedes) keys.add("plans", "plan_id", superseded)
          },
          evolve: (batch) => {
            if (!batch.has("plans", event.planId)) {
              batch.put("plans", {
                plan_id: event.planId,
                session_id: event.sessionId,
                prompt_version: event.promptVersion,
                prompt_hash: event.promptHash,
                model: event.model,
                input_tokens: event.usage.inputTokens,
                output_tokens: event.usage.outputTokens,
                cache_read_tokens: event.usage.cacheReadTokens,
                cache_write_tokens: event.usage.cacheWriteTokens,
                from_seq: event.chunk.fromSeq,
                to_seq: event.chunk.toSeq,
                // The first plan it replaced; each replaced plan's `superseded_by` names this one.
                supersedes: event.supersedes[0] ?? null,
                applied: 0,
                warnings: null,
                position,
                superseded_by: null,
                reminders: remindersIn(event.plan),
                reminders_taken: 0,
                reminder_outcomes: null
              })
            }
            for (const superseded of event.supersedes) {
              const plan = batch.get("plans", superseded)
              if (plan) {
                if (plan.applied === 1) countApplied(batch, plan.session_id, -1)
                batch.update("plans", plan, { applied: 0, superseded_by: event.planId })
              }
            }
          }
        }
      case "RemindersTaken":
        return {
          wants: own,
          evolve: (batch) => {
            const plan = batch.get("plans", event.planId)
            if (plan) batch.update("plans", plan, { reminders_taken: 1, reminder_outcomes: JSON.stringify(event.reminders) })
          }
        }
      case "PlanApplied":
        return {
          wants: own,
          evolve: (batch) => {
            const plan = batch.get("plans", event.planId)
            if (plan && !isRetired(batch, event.planId)) {
              if (plan.applied !== 1) countApplied(batch, event.sessionId, 1)
              batch.update("plans", plan, { applied: 1, warnings: JSON.stringify(event.warnings) })
            }
          }
        }
      default:
        return absurd(event)
    }
  }
)

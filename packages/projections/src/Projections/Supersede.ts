/** Plans replaced by a promoted replay: their rows leave the read model, and stay out when replayed. */
import type { Batch } from "./Rows.js"

/**
 * A plan superseded by a promoted replay stops counting: its notes, open questions and
 * instructions leave the read model (the events stay in the log, and the audit of the new plan).
 * The plan row keeps who superseded it, so its events applied again stay retired.
 */
export const retire = (batch: Batch, planId: string, by: string) => {
  for (const note of batch.where("notes", "plan_id", planId)) {
    for (const directive of batch.where("note_directives", "note_id", note["note_id"])) batch.delete("note_directives", directive)
    for (const source of batch.where("note_sources", "note_id", note["note_id"])) batch.delete("note_sources", source)
    batch.delete("notes", note)
  }
  for (const question of batch.where("questions", "plan_id", planId)) {
    if (question["status"] === "open") batch.update("questions", question, { status: "withdrawn" })
  }
  for (const instruction of batch.where("instructions", "plan_id", planId)) batch.delete("instructions", instruction)
  const plan = batch.get("plans", planId)
  if (plan) batch.update("plans", plan, { applied: 0, superseded_by: by })
}

/** Whether an event of this plan belongs to a plan a promoted replay has replaced. */
export const isRetired = (batch: Batch, planId: string | null): boolean =>
  planId !== null && batch.get("plans", planId)?.["superseded_by"] != null

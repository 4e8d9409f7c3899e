/** The `record_plan` tool definition sent with every planning request. */
import { planInputSchema } from "@verbatim/domain/PlanJsonSchema"
import type { PlanningTool } from "./LanguageModel.js"

/** Forced tool use names this tool; the provider must answer with a call to it. */
export const recordPlanTool: PlanningTool = {
  name: "record_plan",
  description:
    "Record where every message of the session goes: which person each note is about, which messages are the sender's own thinking, which are unclear, and which were addressed to the bot. List seqs only; never write note text.",
  inputSchema: planInputSchema
}

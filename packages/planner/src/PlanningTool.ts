/**
 * The `record_plan` tool definition sent with every planning request, and the contract each
 * prompt version plans under: which tool schema it sends, and whether messages carry their
 * local time. `v1` keeps the schema and rendering its recorded answers were asked with; every
 * later version plans with reminders, told the sender's time zone and each message's local time.
 */
import { planInputSchema, planInputSchemaV1 } from "@verbatim/domain/PlanJsonSchema"
import type { ModelTool } from "./LanguageModel.js"

const description =
  "Record where every message of the session goes: which person each note is about, which messages are the sender's own thinking, which are unclear, and which were addressed to the bot. List seqs only; never write note text."

/** Forced tool use names this tool; the provider must answer with a call to it. */
export const recordPlanTool: ModelTool = {
  name: "record_plan",
  description: `${description} List the reminders the sender asked for, quoting their words exactly.`,
  inputSchema: planInputSchema
}

/** The tool of prompt `v1`, without reminders. */
export const recordPlanToolV1: ModelTool = { name: "record_plan", description, inputSchema: planInputSchemaV1 }

/** What a prompt version plans under. */
export interface PlanContract {
  readonly tool: ModelTool
  /** Messages carry their local time in the sender's zone, and the request names the zone. */
  readonly clock: boolean
  /** The plan may list reminders. */
  readonly reminders: boolean
}

/** The contract of a prompt version: `v1`'s own, the reminders contract for every other. */
export const contractOf = (promptVersion: string): PlanContract =>
  promptVersion === "v1" ? { tool: recordPlanToolV1, clock: false, reminders: false } : { tool: recordPlanTool, clock: true, reminders: true }

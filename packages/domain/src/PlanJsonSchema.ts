/** The plan as a JSON schema for a model tool's `input_schema`: an inline object root. */
import { JSONSchema } from "effect"
import type { Schema } from "effect"
import { Plan, PlanV1 } from "./Plan.js"

export interface ToolInputSchema {
  readonly type: "object"
  readonly properties: Record<string, unknown>
  readonly required: ReadonlyArray<string>
  readonly [key: string]: unknown
}

/** A schema as a tool's `input_schema`: the JSON schema of an object, without `$schema`. */
export const toolInputSchema = <A, I>(schema: Schema.Schema<A, I>): ToolInputSchema => {
  const { $schema: _ignored, ...rest } = JSONSchema.make(schema) as unknown as ToolInputSchema & { $schema?: string }
  return rest
}

/** Computed once: the schema is a constant of the build. The plan with reminders (prompt `v2` on). */
export const planInputSchema: ToolInputSchema = toolInputSchema(Plan)

/** The plan of prompt `v1`, as its recorded requests hold it. */
export const planInputSchemaV1: ToolInputSchema = toolInputSchema(PlanV1)

/** The plan as a JSON schema for a model tool's `input_schema`: an inline object root. */
import { JSONSchema } from "effect"
import { Plan } from "./Plan.js"

export interface ToolInputSchema {
  readonly type: "object"
  readonly properties: Record<string, unknown>
  readonly required: ReadonlyArray<string>
  readonly [key: string]: unknown
}

const make = (): ToolInputSchema => {
  const { $schema: _ignored, ...rest } = JSONSchema.make(Plan) as unknown as ToolInputSchema & { $schema?: string }
  return rest
}

/** Computed once: the schema is a constant of the build. */
export const planInputSchema: ToolInputSchema = make()

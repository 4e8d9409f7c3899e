/**
 * What a replay report was made from, so two runs can be compared later: the prompt (version and
 * sha256), the models, the plan schema the model was given, how often each session was planned,
 * and each session with the last event position it was read at.
 */
import { eventVersions } from "@verbatim/domain/EventVersions"
import { planInputSchema } from "@verbatim/domain/PlanJsonSchema"
import type { Prompt } from "@verbatim/planner/PromptRegistry"
import { Schema } from "effect"
import { createHash } from "node:crypto"
import type { SessionReplay } from "../Replay.js"

export const RunInfo = Schema.Struct({
  prompt: Schema.Struct({ version: Schema.String, hash: Schema.String }),
  models: Schema.Array(Schema.String),
  /** The plan's JSON schema as sent to the model, and the version of the event that records plans. */
  planSchema: Schema.Struct({ eventVersion: Schema.Number, sha256: Schema.String }),
  repeat: Schema.Number,
  /**
   * `aa`: the prompt planned against itself (`replay --aa`), so the gate's noise floor is the
   * disagreement a later `replay --noise-floor-from` can use. Absent in older reports: a candidate.
   */
  mode: Schema.optional(Schema.Literal("candidate", "aa")),
  /** The prompts the live plans were made under, `version@sha256`. */
  livePrompts: Schema.Array(Schema.String),
  /**
   * `lastPosition` null: the session was skipped or could not be planned. `transcripts`: the log
   * positions of the transcripts its messages were read with.
   */
  sessions: Schema.Array(Schema.Struct({
    sessionId: Schema.String,
    lastPosition: Schema.NullOr(Schema.Number),
    transcripts: Schema.Array(Schema.Number)
  }))
})
export type RunInfo = typeof RunInfo.Type

const schemaHash = createHash("sha256").update(JSON.stringify(planInputSchema)).digest("hex")

export const runInfo = (prompt: Prompt, repeat: number, results: ReadonlyArray<SessionReplay>, mode: "candidate" | "aa" = "candidate"): RunInfo => {
  const compared = results.flatMap((r) => (r.status === "changed" || r.status === "unchanged" ? [r] : []))
  return {
    prompt: { version: prompt.version, hash: prompt.hash },
    models: [...new Set(compared.map((r) => r.model))].sort(),
    planSchema: { eventVersion: eventVersions.PlanProduced, sha256: schemaHash },
    repeat,
    mode,
    livePrompts: [...new Set(compared.flatMap((r) => r.livePrompts))].sort(),
    sessions: results.map((r) =>
      "lastPosition" in r
        ? { sessionId: r.sessionId, lastPosition: r.lastPosition, transcripts: r.transcripts }
        : { sessionId: r.sessionId, lastPosition: null, transcripts: [] }
    )
  }
}

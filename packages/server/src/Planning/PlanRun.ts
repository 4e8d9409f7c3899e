/** What a plan job's run is asked (`RunOptions`) and what it did (`PlanOutcome`). */
import type { Promotion } from "@verbatim/domain/Session/Corrections"
import type { Effect } from "effect"

/**
 * What one run did. `crashed`: planning the session stopped the process `maxCrashes` times in a
 * row, so its messages are parked as a question and it is not planned again but by `verbatim retry`.
 */
export type PlanOutcome =
  | "planned"
  | "previewed"
  | "failed"
  | "already-planned"
  | "not-closed"
  | "busy"
  | "no-model"
  | "held"
  | "awaiting-media"
  | "crashed"

/**
 * Options of a run: a prompt version other than the configured one, plans it supersedes (replay
 * promotion), and one more try of a session parked because its planning kept stopping the process.
 */
export interface RunOptions {
  readonly promptVersion?: string
  readonly replan?: boolean
  readonly afterCrashes?: boolean
  /** Decide the plans and tell `promoted`, appending nothing (`previewed`): a promotion's dry run. */
  readonly preview?: boolean
  /** Told what a re-plan did, or would do, with the user's corrections. */
  readonly promoted?: (promotion: Promotion) => Effect.Effect<void>
}

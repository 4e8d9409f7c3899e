/**
 * The verdict on a prompt or model change: the shadow plans' agreement with the users' own
 * outcome against the live plans', judged against the noise floor. FAIL when the shadow loses
 * more than the floor, breaks an invariant or loses (or moves) a reminder its user marked done; INCONCLUSIVE when it loses no more than the floor
 * (noise could explain it); PASS when it loses nothing.
 */
import { addTallies, agreement, emptyTally, type Tally } from "@verbatim/domain/Eval/Score"
import type { Compared, SessionReplay } from "../Replay.js"
import { noiseFloor } from "./Stability.js"

export type Verdict = "PASS" | "FAIL" | "INCONCLUSIVE"

export interface Gate {
  readonly verdict: Verdict
  readonly live: Tally
  readonly shadow: Tally
  /** Shares of labelled messages filed where the user filed them. */
  readonly agreement: { readonly live: number; readonly shadow: number }
  /** The disagreement a change must exceed to count: measured by `--repeat`, or given, whichever is larger. */
  readonly noiseFloor: number
  readonly invariantViolations: number
  readonly personCreations: number
  readonly duplicatePeople: number
  /** Why, in plain words; empty on PASS. */
  readonly reasons: ReadonlyArray<string>
}

const percent = (share: number): string => `${(share * 100).toFixed(1)}%`

export const compared = (results: ReadonlyArray<SessionReplay>): ReadonlyArray<Compared> =>
  results.flatMap((r) => (r.status === "changed" || r.status === "unchanged" ? [r] : []))

/** The gate over every compared session; `floor` is the least noise floor to assume. */
export const gate = (results: ReadonlyArray<SessionReplay>, floor = 0): Gate => {
  const sessions = compared(results)
  const live = sessions.reduce((t, r) => addTallies(t, r.evaluation.live), emptyTally)
  const shadow = sessions.reduce((t, r) => addTallies(t, r.evaluation.shadow), emptyTally)
  const measured = Math.max(floor, noiseFloor(sessions.map((r) => r.stability)))
  const violations = sessions.flatMap((r) => r.evaluation.invariants.violations)
  const failed = results.filter((r) => r.status === "failed").length
  const loss = agreement(live) - agreement(shadow)
  const reminderRegressions = sessions.reduce((n, r) => n + r.reminders.regressions, 0)
  const reasons = [
    ...(violations.length > 0 ? [`${violations.length} invariant violation(s)`] : []),
    ...(failed > 0 ? [`${failed} session(s) could not be planned`] : []),
    ...(reminderRegressions > 0 ? [`${reminderRegressions} reminder(s) the users marked done lost or moved to another time`] : []),
    ...(loss > measured + 1e-9 ? [`agreement fell from ${percent(agreement(live))} to ${percent(agreement(shadow))}, beyond the noise floor of ${percent(measured)}`] : [])
  ]
  const within = loss > 1e-9 && reasons.length === 0
  return {
    verdict: reasons.length > 0 ? "FAIL" : within ? "INCONCLUSIVE" : "PASS",
    live,
    shadow,
    agreement: { live: agreement(live), shadow: agreement(shadow) },
    noiseFloor: measured,
    invariantViolations: violations.length,
    personCreations: sessions.reduce((n, r) => n + r.evaluation.invariants.personCreations.length, 0),
    duplicatePeople: violations.filter((v) => v._tag === "DuplicatePerson").length,
    reasons: within ? [`agreement fell from ${percent(agreement(live))} to ${percent(agreement(shadow))}, within the noise floor of ${percent(measured)}`] : reasons
  }
}

export { percent }

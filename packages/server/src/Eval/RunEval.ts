/**
 * The evaluation set scored under a prompt: each case planned through `planSession` (recorded
 * answers offline, the real model with `--live`), applied, scored against its expected outcome
 * and checked for invariants; the baseline is the case's recorded answer for the shipped prompt.
 * FAIL when a case has no recorded answer for this prompt (a changed prompt needs a live run),
 * an invariant breaks, or agreement falls below the baseline's.
 */
import { applyPlan } from "@verbatim/domain/ApplyPlan/ApplyPlan"
import { checkInvariants, type Violation } from "@verbatim/domain/Eval/Invariants"
import { addTallies, agreement, emptyTally, type MessageScore, scoreSession, type Tally } from "@verbatim/domain/Eval/Score"
import type { EvalCase } from "@verbatim/planner/EvalSet"
import { Array as Arr, Effect } from "effect"
import { planSession } from "@verbatim/planner/Planning"
import { percent } from "../Replay/Gate.js"
import { prepare } from "./Case.js"

export type CaseResult =
  | {
    readonly _tag: "Scored"
    readonly id: string
    readonly baseline: Tally
    readonly candidate: Tally
    /** Messages the candidate scores otherwise than the recorded answer. */
    readonly changed: ReadonlyArray<MessageScore & { readonly before: MessageScore["verdict"] }>
    readonly violations: ReadonlyArray<Violation>
  }
  | { readonly _tag: "Unrecorded"; readonly id: string; readonly message: string }

/** Plans and scores one case under a prompt version. */
export const runCase = Effect.fn("RunEval.runCase")(function*(evalCase: EvalCase, promptVersion: string) {
  const { contacts, labels, messages, people } = prepare(evalCase)
  const baseline = scoreSession(labels, [applyPlan(messages, evalCase.recorded)], people)
  const planned = yield* planSession(messages as Arr.NonEmptyReadonlyArray<(typeof messages)[number]>, contacts, promptVersion).pipe(
    Effect.catchAllDefect((defect) => Effect.fail({ message: defect instanceof Error ? defect.message : String(defect) })),
    Effect.either
  )
  if (planned._tag === "Left") return { _tag: "Unrecorded", id: evalCase.id, message: planned.left.message } satisfies CaseResult
  const decisions = planned.right.plans.map((p) =>
    applyPlan(messages.filter((m) => m.seq >= p.built.chunk.fromSeq && m.seq <= p.built.chunk.toSeq), p.result.plan))
  const scored = scoreSession(labels, decisions, people)
  return {
    _tag: "Scored",
    id: evalCase.id,
    baseline: baseline.tally,
    candidate: scored.tally,
    changed: scored.messages.flatMap((m, i) => (m.verdict === baseline.messages[i]!.verdict ? [] : [{ ...m, before: baseline.messages[i]!.verdict }])),
    violations: checkInvariants(messages, decisions, people, labels).violations
  } satisfies CaseResult
})

export interface EvalVerdict {
  readonly verdict: "PASS" | "FAIL"
  readonly baseline: Tally
  readonly candidate: Tally
  readonly reasons: ReadonlyArray<string>
}

export const evalVerdict = (results: ReadonlyArray<CaseResult>): EvalVerdict => {
  const scored = results.flatMap((r) => (r._tag === "Scored" ? [r] : []))
  const baseline = scored.reduce((t, r) => addTallies(t, r.baseline), emptyTally)
  const candidate = scored.reduce((t, r) => addTallies(t, r.candidate), emptyTally)
  const unrecorded = results.length - scored.length
  const violations = scored.reduce((n, r) => n + r.violations.length, 0)
  const reasons = [
    ...(unrecorded > 0 ? [`${unrecorded} case(s) have no recorded answer for this prompt: run \`npm run eval -- --live\` with ANTHROPIC_API_KEY set`] : []),
    ...(violations > 0 ? [`${violations} invariant violation(s)`] : []),
    ...(agreement(candidate) < agreement(baseline) - 1e-9
      ? [`agreement fell from ${percent(agreement(baseline))} to ${percent(agreement(candidate))}`]
      : [])
  ]
  return { verdict: reasons.length === 0 ? "PASS" : "FAIL", baseline, candidate, reasons }
}

const tally = (t: Tally) => `${t.correct} correct, ${t.wrong} wrong, ${t.asked} asked, ${t.unlabelled} unlabelled`

/** The report: the verdict and totals, then each case that changed, broke an invariant or was not recorded. */
export const renderEval = (promptVersion: string, results: ReadonlyArray<CaseResult>, verdict: EvalVerdict): string =>
  [
    `eval under prompt ${promptVersion}: ${results.length} case(s): ${verdict.verdict}`,
    `  agreement ${percent(agreement(verdict.candidate))} (${tally(verdict.candidate)}); ` +
    `recorded answers ${percent(agreement(verdict.baseline))} (${tally(verdict.baseline)})`,
    ...verdict.reasons.map((r) => `  ${r}`),
    ...results.flatMap((r) =>
      r._tag === "Unrecorded"
        ? [`case ${r.id}: not recorded: ${r.message}`]
        : r.changed.length + r.violations.length === 0 ? [] : [
          `case ${r.id}:`,
          ...r.changed.map((m) => `  seq ${m.seq}: ${m.before} -> ${m.verdict}`),
          ...r.violations.map((v) => `  invariant broken: ${JSON.stringify(v)}`)
        ]
    ),
    ""
  ].join("\n")

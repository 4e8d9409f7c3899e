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
import { dueText } from "@verbatim/domain/Eval/ReminderText"
import { addReminderScores, emptyReminderScore, precision, recall, type ReminderScore } from "@verbatim/domain/Eval/ReminderScore"
import type { EvalCase } from "@verbatim/planner/EvalSet"
import { Array as Arr, Effect } from "effect"
import { planSession } from "@verbatim/planner/Planning"
import { contractOf } from "@verbatim/planner/PlanningTool"
import { percent } from "../Replay/Gate.js"
import { prepare, scoreCaseReminders } from "./Case.js"

export type CaseResult =
  | {
    readonly _tag: "Scored"
    readonly id: string
    readonly baseline: Tally
    readonly candidate: Tally
    /** Messages the candidate scores otherwise than the recorded answer. */
    readonly changed: ReadonlyArray<MessageScore & { readonly before: MessageScore["verdict"] }>
    readonly violations: ReadonlyArray<Violation>
    /** The reminders of the recorded answer and of the candidate against the expected ones; null when the prompt plans none. */
    readonly reminders: { readonly baseline: ReminderScore; readonly candidate: ReminderScore } | null
  }
  | { readonly _tag: "Unrecorded"; readonly id: string; readonly message: string }

/** Plans and scores one case under a prompt version. */
export const runCase = Effect.fn("RunEval.runCase")(function*(evalCase: EvalCase, promptVersion: string) {
  const { contacts, labels, messages, people, zone } = prepare(evalCase)
  const baseline = scoreSession(labels, [applyPlan(messages, evalCase.recorded)], people)
  const planned = yield* planSession(messages as Arr.NonEmptyReadonlyArray<(typeof messages)[number]>, contacts, promptVersion, zone).pipe(
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
    violations: checkInvariants(messages, decisions, people, labels).violations,
    reminders: contractOf(planned.right.prompt.version).reminders
      ? {
        baseline: scoreCaseReminders(evalCase, messages, [evalCase.recorded]),
        candidate: scoreCaseReminders(evalCase, messages, planned.right.plans.map((p) => p.result.plan))
      }
      : null
  } satisfies CaseResult
})

export interface EvalVerdict {
  readonly verdict: "PASS" | "FAIL"
  readonly baseline: Tally
  readonly candidate: Tally
  /** Reminder scores summed over the cases scored for reminders; null when the prompt plans none. */
  readonly reminders: { readonly baseline: ReminderScore; readonly candidate: ReminderScore } | null
  readonly reasons: ReadonlyArray<string>
}

const sumReminders = (scored: ReadonlyArray<Extract<CaseResult, { _tag: "Scored" }>>): EvalVerdict["reminders"] => {
  const all = scored.flatMap((r) => (r.reminders === null ? [] : [r.reminders]))
  if (all.length === 0) return null
  return {
    baseline: all.reduce((t, r) => addReminderScores(t, r.baseline), emptyReminderScore),
    candidate: all.reduce((t, r) => addReminderScores(t, r.candidate), emptyReminderScore)
  }
}

/** Why the candidate's reminders score below the recorded answers'. */
const reminderReasons = (reminders: EvalVerdict["reminders"]): ReadonlyArray<string> => {
  if (reminders === null) return []
  const fell = (name: string, measure: (s: ReminderScore) => number) =>
    measure(reminders.candidate) < measure(reminders.baseline) - 1e-9
      ? [`reminder ${name} fell from ${percent(measure(reminders.baseline))} to ${percent(measure(reminders.candidate))}`]
      : []
  return [...fell("precision", precision), ...fell("recall", recall)]
}

export const evalVerdict = (results: ReadonlyArray<CaseResult>): EvalVerdict => {
  const scored = results.flatMap((r) => (r._tag === "Scored" ? [r] : []))
  const baseline = scored.reduce((t, r) => addTallies(t, r.baseline), emptyTally)
  const candidate = scored.reduce((t, r) => addTallies(t, r.candidate), emptyTally)
  const unrecorded = results.length - scored.length
  const violations = scored.reduce((n, r) => n + r.violations.length, 0)
  const reminders = sumReminders(scored)
  const reasons = [
    ...(unrecorded > 0 ? [`${unrecorded} case(s) have no recorded answer for this prompt: run \`npm run eval -- --live\` with ANTHROPIC_API_KEY set`] : []),
    ...(violations > 0 ? [`${violations} invariant violation(s)`] : []),
    ...(agreement(candidate) < agreement(baseline) - 1e-9
      ? [`agreement fell from ${percent(agreement(baseline))} to ${percent(agreement(candidate))}`]
      : []),
    ...reminderReasons(reminders)
  ]
  return { verdict: reasons.length === 0 ? "PASS" : "FAIL", baseline, candidate, reminders, reasons }
}

const reminderTally = (s: ReminderScore) =>
  `precision ${percent(precision(s))} (${s.matched} of ${s.proposed} proposed), recall ${percent(recall(s))} (${s.matched} of ${s.expected} expected)`

const words = (seq: number, quote: string, due: string | null) => `seq ${seq} ${JSON.stringify(quote)} due ${dueText(due)}`

/** A case's reminders the candidate missed or proposed unasked. */
const reminderMisses = (r: Extract<CaseResult, { _tag: "Scored" }>): ReadonlyArray<string> =>
  r.reminders === null ? [] : [
    ...r.reminders.candidate.missed.map((e) => `  reminder missed: ${words(e.seq, e.quote, e.due)}`),
    ...r.reminders.candidate.unexpected.map((p) => `  reminder not expected: ${words(p.seq, p.quote, p.local)}`)
  ]

const tally = (t: Tally) => `${t.correct} correct, ${t.wrong} wrong, ${t.asked} asked, ${t.unlabelled} unlabelled`

/** The report: the verdict and totals, then each case that changed, broke an invariant or was not recorded. */
export const renderEval = (promptVersion: string, results: ReadonlyArray<CaseResult>, verdict: EvalVerdict): string =>
  [
    `eval under prompt ${promptVersion}: ${results.length} case(s): ${verdict.verdict}`,
    `  agreement ${percent(agreement(verdict.candidate))} (${tally(verdict.candidate)}); ` +
    `recorded answers ${percent(agreement(verdict.baseline))} (${tally(verdict.baseline)})`,
    ...(verdict.reminders === null ? [] : [
      `  reminders ${reminderTally(verdict.reminders.candidate)}; recorded answers ${reminderTally(verdict.reminders.baseline)}`
    ]),
    ...verdict.reasons.map((r) => `  ${r}`),
    ...results.flatMap((r) => {
      if (r._tag === "Unrecorded") return [`case ${r.id}: not recorded: ${r.message}`]
      const misses = reminderMisses(r)
      return r.changed.length + r.violations.length + misses.length === 0 ? [] : [
        `case ${r.id}:`,
        ...r.changed.map((m) => `  seq ${m.seq}: ${m.before} -> ${m.verdict}`),
        ...r.violations.map((v) => `  invariant broken: ${JSON.stringify(v)}`),
        ...misses
      ]
    }),
    ""
  ].join("\n")

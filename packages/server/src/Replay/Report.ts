/** The replay report: a summary of every session first, then each session's changes; or JSON. */
import * as ModelPrices from "@verbatim/planner/ModelPrices"
import { Option } from "effect"
import type { Compared, SessionReplay, Tokens } from "../Replay.js"
import type { Cut, DecisionDiff } from "./Diff.js"
import { type Gate, percent } from "./Gate.js"
import { hasReminders, reminderLines, type ReminderTotals, reminderTotals, totalsText } from "@verbatim/domain/Eval/ReminderText"
import type { RunInfo } from "./Run.js"

/** Totals over all sessions. */
export interface Summary {
  readonly promptVersion: string
  readonly sessions: number
  readonly changed: number
  readonly unchanged: number
  readonly failed: number
  readonly skipped: number
  readonly moved: number
  readonly regrouped: number
  readonly cutsChanged: number
  readonly questionsAdded: number
  readonly questionsResolved: number
  /** Reminders the candidate adds, loses, moves or keeps, and the changes the users' own handling judges. */
  readonly reminders: ReminderTotals
  readonly tokens: { readonly live: Tokens; readonly shadow: Tokens }
  /** The shadow plans' cost over the sessions whose model has a price (null: none has), and the rate it is at. */
  readonly cost: { readonly shadow: number | null; readonly rate: ModelPrices.Rate }
  /**
   * Milliseconds in model calls (null: unknown). The shadow's is summed over sessions replayed one
   * after another; with Message Batches it is the longest session's, since they wait on the same batches.
   */
  readonly latency: { readonly live: number | null; readonly shadow: number | null }
}

const known = (values: ReadonlyArray<number | null>): ReadonlyArray<number> => values.flatMap((v) => (v === null ? [] : [v]))

/** The replayed sessions' latency, as `Summary.latency` says. */
const latency = (compared: ReadonlyArray<Compared>, rate: ModelPrices.Rate): Summary["latency"] => {
  const live = known(compared.map((r) => r.latency.live))
  const shadow = known(compared.map((r) => r.latency.shadow))
  return {
    live: live.length === 0 ? null : live.reduce((a, b) => a + b, 0),
    shadow: shadow.length === 0 ? null : rate === "batch" ? Math.max(...shadow) : shadow.reduce((a, b) => a + b, 0)
  }
}

const rateOf = (compared: ReadonlyArray<Compared>): ModelPrices.Rate => (compared.some((r) => r.rate === "batch") ? "batch" : "list")

export const summarise = (promptVersion: string, results: ReadonlyArray<SessionReplay>): Summary => {
  const compared = results.flatMap((r) => (r.status === "changed" || r.status === "unchanged" ? [r] : []))
  const costs = compared.flatMap((r) => Option.toArray(ModelPrices.cost(r.model, r.tokens.shadow, r.rate)))
  const total = (f: (d: DecisionDiff) => number) => compared.reduce((n, r) => n + f(r.diff), 0)
  const tokens = (side: "live" | "shadow") => ({
    input: compared.reduce((n, r) => n + r.tokens[side].input, 0),
    output: compared.reduce((n, r) => n + r.tokens[side].output, 0)
  })
  return {
    promptVersion,
    sessions: results.length,
    changed: results.filter((r) => r.status === "changed").length,
    unchanged: results.filter((r) => r.status === "unchanged").length,
    failed: results.filter((r) => r.status === "failed").length,
    skipped: results.filter((r) => r.status === "skipped").length,
    moved: total((d) => d.moved.length),
    regrouped: compared.filter((r) => r.diff.regrouped.before.length + r.diff.regrouped.after.length > 0).length,
    cutsChanged: total((d) => d.cuts.removed.length + d.cuts.added.length),
    questionsAdded: total((d) => d.questions.added.length),
    questionsResolved: total((d) => d.questions.resolved.length),
    reminders: reminderTotals(compared.map((r) => r.reminders)),
    tokens: { live: tokens("live"), shadow: tokens("shadow") },
    cost: { shadow: costs.length === 0 ? null : costs.reduce((a, b) => a + b, 0), rate: rateOf(compared) },
    latency: latency(compared, rateOf(compared))
  }
}

const groups = (gs: ReadonlyArray<ReadonlyArray<number>>) => gs.map((g) => `[${g.join(" ")}]`).join(" ")
const cut = (c: Cut) => `seq ${c.seq} ${c.kind === "message" ? "whole message" : "directive"} ${JSON.stringify(c.text)}`
export const tokens = (t: Tokens) => `${t.input} in / ${t.output} out`

/** `, $0.0450 at list price` when the model's price is known, else nothing. */
const priced = (r: Compared): string =>
  Option.match(ModelPrices.cost(r.model, r.tokens.shadow, r.rate), {
    onNone: () => "",
    onSome: (d) => `, ${ModelPrices.formatDollars(d)} ${ModelPrices.rateLabel(r.rate)}`
  })

/** ` ($0.0900 at list price)`: the shadow plans' total cost, when some model has a known price. */
export const totalCost = (summary: Summary): string =>
  summary.cost.shadow === null ? "" : ` (${ModelPrices.formatDollars(summary.cost.shadow)} ${ModelPrices.rateLabel(summary.cost.rate)})`

const seconds = (ms: number | null, unknown: string) => (ms === null ? unknown : `${(ms / 1000).toFixed(1)} s`)

/** `candidate 12.5 s (batch wall time), live unknown (not recorded)`. */
export const latencyText = (summary: Summary): string =>
  `candidate ${seconds(summary.latency.shadow, "unknown (no call made)")}${summary.cost.rate === "batch" ? " (batch wall time)" : ""}, ` +
  `live ${seconds(summary.latency.live, "unknown (not recorded)")}`

const details = (r: SessionReplay): ReadonlyArray<string> => {
  if (r.status === "failed" || r.status === "skipped") return [`session ${r.sessionId}: ${r.status}: ${r.error}`]
  const d = r.diff
  return [
    `session ${r.sessionId}: ${r.status} (model ${r.model}; tokens ${tokens(r.tokens.shadow)}${priced(r)}, ` +
    `live ${tokens(r.tokens.live)}${r.reused ? "; reused from the log" : ""})` +
      (r.erased === undefined ? "" : `; ${r.erased} forgotten message(s) left out`),
    ...d.moved.map((m) => `  moved: seq ${m.seq} from ${m.from} to ${m.to}`),
    ...(d.regrouped.before.length + d.regrouped.after.length > 0
      ? [`  regrouped: ${groups(d.regrouped.before) || "-"} -> ${groups(d.regrouped.after) || "-"}`]
      : []),
    ...d.cuts.removed.map((c) => `  no longer cut: ${cut(c)}`),
    ...d.cuts.added.map((c) => `  newly cut: ${cut(c)}`),
    ...d.questions.added.map((q) => `  question added (${q.reason}): seq ${q.seqs.join(" ")}`),
    ...d.questions.resolved.map((q) => `  question resolved (${q.reason}): seq ${q.seqs.join(" ")}`),
    ...reminderLines(r.reminders).map((line) => `  reminder ${line}`)
  ]
}

/** The human report: summary, then details per session. */
export const renderText = (summary: Summary, gate: Gate, results: ReadonlyArray<SessionReplay>, mode: RunInfo["mode"] = "candidate"): string =>
  [
    `${mode === "aa" ? "A/A " : ""}replay under prompt ${summary.promptVersion}: ${summary.sessions} session(s), ${summary.changed} changed, ` +
    `${summary.unchanged} unchanged, ${summary.failed} failed, ${summary.skipped} skipped`,
    `  notes moved between people: ${summary.moved}`,
    `  sessions regrouped: ${summary.regrouped}`,
    `  instructions cut differently: ${summary.cutsChanged}`,
    `  questions added: ${summary.questionsAdded}, resolved: ${summary.questionsResolved}`,
    ...(hasReminders(summary.reminders) ? [`  reminders: ${totalsText(summary.reminders)}`] : []),
    `  tokens: ${tokens(summary.tokens.shadow)}${totalCost(summary)} (live plans: ${tokens(summary.tokens.live)})`,
    `  time in model calls: ${latencyText(summary)}`,
    `  agreement with the users' outcome: ${percent(gate.agreement.shadow)} (live plans ${percent(gate.agreement.live)}, ` +
    `noise floor ${percent(gate.noiseFloor)}; invariant violations ${gate.invariantViolations}): ${gate.verdict}`,
    ...gate.reasons.map((reason) => `  why: ${reason}`),
    ...(mode === "aa" ? [`  disagreement floor (the live plans and each repeat against the first): ${percent(gate.noiseFloor)}`] : []),
    "",
    ...results.flatMap(details)
  ].join("\n")

/** The machine report, which `verbatim replay compare` reads back. */
export const renderJson = (run: RunInfo, summary: Summary, gate: Gate, results: ReadonlyArray<SessionReplay>): string =>
  JSON.stringify({ run, gate, summary, sessions: results }, null, 2)

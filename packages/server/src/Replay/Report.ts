/** The replay report: a summary of every session first, then each session's changes; or JSON. */
import * as ModelPrices from "@verbatim/planner/ModelPrices"
import { Option } from "effect"
import type { SessionReplay, Tokens } from "../Replay.js"
import type { Cut, DecisionDiff } from "./Diff.js"
import { type Gate, percent } from "./Gate.js"
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
  readonly tokens: { readonly live: Tokens; readonly shadow: Tokens }
}

export const summarise = (promptVersion: string, results: ReadonlyArray<SessionReplay>): Summary => {
  const compared = results.flatMap((r) => (r.status === "changed" || r.status === "unchanged" ? [r] : []))
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
    tokens: { live: tokens("live"), shadow: tokens("shadow") }
  }
}

const groups = (gs: ReadonlyArray<ReadonlyArray<number>>) => gs.map((g) => `[${g.join(" ")}]`).join(" ")
const cut = (c: Cut) => `seq ${c.seq} ${c.kind === "message" ? "whole message" : "directive"} ${JSON.stringify(c.text)}`
export const tokens = (t: Tokens) => `${t.input} in / ${t.output} out`

/** `, $0.0450 at list price` when the model's price is known, else nothing. */
const priced = (model: string, t: Tokens): string =>
  Option.match(ModelPrices.cost(model, t), { onNone: () => "", onSome: (d) => `, ${ModelPrices.formatDollars(d)} at list price` })

/** The shadow plans' total cost over the sessions whose model has a known price. */
export const totalCost = (results: ReadonlyArray<SessionReplay>): string => {
  const costs = results.flatMap((r) =>
    r.status === "changed" || r.status === "unchanged" ? Option.toArray(ModelPrices.cost(r.model, r.tokens.shadow)) : []
  )
  return costs.length === 0 ? "" : ` (${ModelPrices.formatDollars(costs.reduce((a, b) => a + b, 0))} at list price)`
}

const details = (r: SessionReplay): ReadonlyArray<string> => {
  if (r.status === "failed" || r.status === "skipped") return [`session ${r.sessionId}: ${r.status}: ${r.error}`]
  const d = r.diff
  return [
    `session ${r.sessionId}: ${r.status} (model ${r.model}; tokens ${tokens(r.tokens.shadow)}${priced(r.model, r.tokens.shadow)}, ` +
    `live ${tokens(r.tokens.live)}${r.reused ? "; reused from the log" : ""})`,
    ...d.moved.map((m) => `  moved: seq ${m.seq} from ${m.from} to ${m.to}`),
    ...(d.regrouped.before.length + d.regrouped.after.length > 0
      ? [`  regrouped: ${groups(d.regrouped.before) || "-"} -> ${groups(d.regrouped.after) || "-"}`]
      : []),
    ...d.cuts.removed.map((c) => `  no longer cut: ${cut(c)}`),
    ...d.cuts.added.map((c) => `  newly cut: ${cut(c)}`),
    ...d.questions.added.map((q) => `  question added (${q.reason}): seq ${q.seqs.join(" ")}`),
    ...d.questions.resolved.map((q) => `  question resolved (${q.reason}): seq ${q.seqs.join(" ")}`)
  ]
}

/** The human report: summary, then details per session. */
export const renderText = (summary: Summary, gate: Gate, results: ReadonlyArray<SessionReplay>): string =>
  [
    `replay under prompt ${summary.promptVersion}: ${summary.sessions} session(s), ${summary.changed} changed, ` +
    `${summary.unchanged} unchanged, ${summary.failed} failed, ${summary.skipped} skipped`,
    `  notes moved between people: ${summary.moved}`,
    `  sessions regrouped: ${summary.regrouped}`,
    `  instructions cut differently: ${summary.cutsChanged}`,
    `  questions added: ${summary.questionsAdded}, resolved: ${summary.questionsResolved}`,
    `  tokens: ${tokens(summary.tokens.shadow)}${totalCost(results)} (live plans: ${tokens(summary.tokens.live)})`,
    `  agreement with the users' outcome: ${percent(gate.agreement.shadow)} (live plans ${percent(gate.agreement.live)}, ` +
    `noise floor ${percent(gate.noiseFloor)}; invariant violations ${gate.invariantViolations}): ${gate.verdict}`,
    "",
    ...results.flatMap(details)
  ].join("\n")

/** The machine report, which `verbatim replay compare` reads back. */
export const renderJson = (run: RunInfo, summary: Summary, gate: Gate, results: ReadonlyArray<SessionReplay>): string =>
  JSON.stringify({ run, gate, summary, sessions: results }, null, 2)

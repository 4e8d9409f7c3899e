/**
 * Two saved JSON replay reports side by side (`verbatim replay compare A.json B.json`): what each
 * was made from, where the inputs differ (prompt, model, plan schema, sessions or their last
 * positions), the agreement and verdict of each, the sessions whose scores differ, and the
 * reminders each added, lost and moved (in total and by session) where either report has them.
 */
import { hasReminders, type ReminderTotals, totalsText } from "@verbatim/domain/Eval/ReminderText"
import { Schema } from "effect"
import { percent } from "./Gate.js"
import { RunInfo } from "./Run.js"

const Tally = Schema.Struct({ correct: Schema.Number, wrong: Schema.Number, asked: Schema.Number, unlabelled: Schema.Number })
const counts = { unchanged: Schema.Number, regressions: Schema.Number, improvements: Schema.Number }
/** A session's reminder changes as saved (their details are not compared, only how many). */
const SessionReminders = Schema.Struct({ added: Schema.Array(Schema.Unknown), lost: Schema.Array(Schema.Unknown), moved: Schema.Array(Schema.Unknown), ...counts })
const Totals = Schema.Struct({ added: Schema.Number, lost: Schema.Number, moved: Schema.Number, ...counts })

/** The parts of a JSON report a comparison reads; the rest is ignored. */
export const SavedReport = Schema.Struct({
  run: RunInfo,
  gate: Schema.Struct({
    verdict: Schema.Literal("PASS", "FAIL", "INCONCLUSIVE"),
    agreement: Schema.Struct({ live: Schema.Number, shadow: Schema.Number }),
    noiseFloor: Schema.Number,
    invariantViolations: Schema.Number
  }),
  /** Reports saved before reminders were replayed have none. */
  summary: Schema.optional(Schema.Struct({ reminders: Schema.optional(Totals) })),
  sessions: Schema.Array(Schema.Struct({
    sessionId: Schema.String,
    status: Schema.String,
    evaluation: Schema.optional(Schema.Struct({ shadow: Tally })),
    reminders: Schema.optional(SessionReminders)
  }))
})
export type SavedReport = typeof SavedReport.Type

const describe = (name: string, r: SavedReport): string =>
  `${name}: prompt ${r.run.prompt.version} (${r.run.prompt.hash.slice(0, 12)}), model ${r.run.models.join(", ") || "-"}, ` +
  `${r.run.sessions.length} session(s), repeat ${r.run.repeat}: agreement ${percent(r.gate.agreement.shadow)} ` +
  `(live ${percent(r.gate.agreement.live)}, floor ${percent(r.gate.noiseFloor)}), ${r.gate.invariantViolations} violation(s), ${r.gate.verdict}`

const inputs = (a: SavedReport, b: SavedReport): ReadonlyArray<string> => {
  const positions = (r: SavedReport) =>
    new Map(r.run.sessions.map((s) => [s.sessionId, s.transcripts.length === 0 ? s.lastPosition : `${s.lastPosition} (transcripts ${s.transcripts.join(" ")})`]))
  const pa = positions(a)
  const pb = positions(b)
  return [
    ...(a.run.prompt.hash !== b.run.prompt.hash ? ["prompts differ"] : []),
    ...(a.run.models.join() !== b.run.models.join() ? ["models differ"] : []),
    ...(a.run.planSchema.sha256 !== b.run.planSchema.sha256 || a.run.planSchema.eventVersion !== b.run.planSchema.eventVersion
      ? ["plan schemas differ"]
      : []),
    ...[...pa.keys()].filter((id) => !pb.has(id)).map((id) => `session ${id} only in A`),
    ...[...pb.keys()].filter((id) => !pa.has(id)).map((id) => `session ${id} only in B`),
    ...[...pa].filter(([id, at]) => pb.has(id) && pb.get(id) !== at).map(([id, at]) =>
      `session ${id} read at position ${at ?? "-"} in A, ${pb.get(id) ?? "-"} in B`)
  ]
}

const tally = (t: typeof Tally.Type | undefined) =>
  t === undefined ? "not scored" : `${t.correct} correct, ${t.wrong} wrong, ${t.asked} asked`

const none: ReminderTotals = { added: 0, lost: 0, moved: 0, unchanged: 0, regressions: 0, improvements: 0 }
const totalsOf = (r: typeof SessionReminders.Type | undefined): ReminderTotals =>
  r === undefined ? none : { ...r, added: r.added.length, lost: r.lost.length, moved: r.moved.length }

/** The reminder lines: each report's totals, and the sessions whose reminders came out differently. */
const reminderLines = (a: SavedReport, b: SavedReport): ReadonlyArray<string> => {
  const ta = a.summary?.reminders ?? none
  const tb = b.summary?.reminders ?? none
  if (!hasReminders(ta) && !hasReminders(tb)) return []
  const inB = new Map(b.sessions.map((s) => [s.sessionId, totalsText(totalsOf(s.reminders))]))
  const differing = a.sessions.flatMap((s) => {
    const other = inB.get(s.sessionId)
    const mine = totalsText(totalsOf(s.reminders))
    return other === undefined || other === mine ? [] : [`  ${s.sessionId}: A ${mine}; B ${other}`]
  })
  return [
    `reminders: A ${totalsText(ta)}`,
    `           B ${totalsText(tb)}`,
    ...(differing.length === 0 ? ["every session's reminders came out the same"] : ["sessions whose reminders differ:", ...differing])
  ]
}

/** The comparison, as text. */
export const renderComparison = (a: SavedReport, b: SavedReport): string => {
  const scoresB = new Map(b.sessions.map((s) => [s.sessionId, s]))
  const differing = a.sessions.flatMap((s) => {
    const other = scoresB.get(s.sessionId)
    if (other === undefined || tally(s.evaluation?.shadow) === tally(other.evaluation?.shadow)) return []
    return [`  ${s.sessionId}: A ${tally(s.evaluation?.shadow)}; B ${tally(other.evaluation?.shadow)}`]
  })
  const differences = inputs(a, b)
  return [
    describe("A", a),
    describe("B", b),
    differences.length === 0 ? "inputs: the same sessions at the same positions, prompt, model and plan schema" : `inputs: ${differences.join("; ")}`,
    `agreement: ${percent(a.gate.agreement.shadow)} -> ${percent(b.gate.agreement.shadow)}`,
    ...(differing.length === 0 ? ["every session scores the same"] : ["sessions scored differently:", ...differing]),
    ...reminderLines(a, b),
    ""
  ].join("\n")
}

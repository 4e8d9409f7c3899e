/**
 * Two saved JSON replay reports side by side (`verbatim replay compare A.json B.json`): what each
 * was made from, where the inputs differ (prompt, model, plan schema, sessions or their last
 * positions), the agreement and verdict of each, and the sessions whose scores differ.
 */
import { Schema } from "effect"
import { percent } from "./Gate.js"
import { RunInfo } from "./Run.js"

const Tally = Schema.Struct({ correct: Schema.Number, wrong: Schema.Number, asked: Schema.Number, unlabelled: Schema.Number })

/** The parts of a JSON report a comparison reads; the rest is ignored. */
export const SavedReport = Schema.Struct({
  run: RunInfo,
  gate: Schema.Struct({
    verdict: Schema.Literal("PASS", "FAIL", "INCONCLUSIVE"),
    agreement: Schema.Struct({ live: Schema.Number, shadow: Schema.Number }),
    noiseFloor: Schema.Number,
    invariantViolations: Schema.Number
  }),
  sessions: Schema.Array(Schema.Struct({
    sessionId: Schema.String,
    status: Schema.String,
    evaluation: Schema.optional(Schema.Struct({ shadow: Tally }))
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
    ""
  ].join("\n")
}

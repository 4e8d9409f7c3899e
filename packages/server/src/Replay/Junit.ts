/**
 * The replay report as JUnit XML for CI dashboards: one test case per session (failing when it
 * loses agreement with its user's outcome, loses or moves a reminder its user marked done, breaks
 * an invariant or could not be planned; skipped when it was not replayed) and one for the gate.
 */
import type { SessionReplay } from "../Replay.js"
import { changedRows, placementText } from "./Evaluate.js"
import type { Gate } from "./Gate.js"
import { reminderLines } from "@verbatim/domain/Eval/ReminderText"
import type { RunInfo } from "./Run.js"

const xml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

interface Case {
  readonly name: string
  readonly failure: string | null
  readonly skipped: string | null
}

const caseOf = (r: SessionReplay): Case => {
  if (r.status === "skipped") return { name: r.sessionId, failure: null, skipped: r.error }
  if (r.status === "failed") return { name: r.sessionId, failure: r.error, skipped: null }
  const { live, shadow, invariants } = r.evaluation
  const lost = shadow.correct < live.correct
  const reminders = r.reminders.regressions > 0
  if (!lost && !reminders && invariants.violations.length === 0) return { name: r.sessionId, failure: null, skipped: null }
  const details = [
    ...(lost ? [`agrees on ${shadow.correct} message(s), live ${live.correct}`] : []),
    ...(reminders ? [`${r.reminders.regressions} reminder(s) the user marked done lost or moved`, ...reminderLines(r.reminders).map((l) => `reminder ${l}`)] : []),
    ...changedRows(r.evaluation).map((m) =>
      `seq ${m.seq}: user ${placementText(m.label)}, live ${placementText(m.live)}, candidate ${placementText(m.candidate)} (${m.verdict})`),
    ...invariants.violations.map((v) => `invariant broken: ${JSON.stringify(v)}`)
  ]
  return { name: r.sessionId, failure: details.join("\n"), skipped: null }
}

const render = (c: Case, classname: string): string => {
  const open = `    <testcase classname="${xml(classname)}" name="${xml(c.name)}"`
  if (c.failure !== null) return `${open}>\n      <failure message="${xml(c.failure.split("\n")[0]!)}">${xml(c.failure)}</failure>\n    </testcase>`
  if (c.skipped !== null) return `${open}>\n      <skipped message="${xml(c.skipped)}"/>\n    </testcase>`
  return `${open}/>`
}

export const renderJunit = (run: RunInfo, gate: Gate, results: ReadonlyArray<SessionReplay>): string => {
  const classname = `replay.${run.prompt.version}`
  const cases: Array<Case> = [
    { name: "gate", failure: gate.verdict === "FAIL" ? gate.reasons.join("\n") : null, skipped: null },
    ...results.map(caseOf)
  ]
  const failures = cases.filter((c) => c.failure !== null).length
  const skipped = cases.filter((c) => c.skipped !== null).length
  const counts = `tests="${cases.length}" failures="${failures}" skipped="${skipped}"`
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="verbatim replay" ${counts}>`,
    `  <testsuite name="${xml(`replay under prompt ${run.prompt.version} (${run.prompt.hash})`)}" ${counts}>`,
    ...cases.map((c) => render(c, classname)),
    "  </testsuite>",
    "</testsuites>",
    ""
  ].join("\n")
}

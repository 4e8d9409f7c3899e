/**
 * The replay report as Markdown short enough for a pull-request comment: the verdict and the
 * agreement first, then each changed session's messages with the user's, the live and the
 * candidate's owners side by side.
 */
import type { SessionReplay } from "../Replay.js"
import { isEmpty } from "./Diff.js"
import { changedRows, placementText } from "./Evaluate.js"
import { compared, type Gate, percent } from "./Gate.js"
import { latencyText, type Summary, tokens, totalCost } from "./Report.js"
import { hasReminders, reminderLines, totalsText } from "@verbatim/domain/Eval/ReminderText"
import type { RunInfo } from "./Run.js"

/** At most this many sessions are detailed; the JSON report has them all. */
const shownSessions = 20

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/`/g, "'")

const tallyRow = (name: string, t: Gate["live"]) => `| ${name} | ${t.correct} | ${t.wrong} | ${t.asked} | ${t.unlabelled} |`

const session = (r: ReturnType<typeof compared>[number]): ReadonlyArray<string> => {
  const rows = changedRows(r.evaluation)
  const { live, shadow } = r.evaluation
  const labelled = (t: Gate["live"]) => t.correct + t.wrong + t.asked
  return [
    `**\`${r.sessionId}\`**: ${shadow.correct} of ${labelled(shadow)} agree (live ${live.correct} of ${labelled(live)})`,
    "",
    ...(rows.length === 0 ? [isEmpty(r.diff) ? "Every message keeps its owner and its cuts." : "Regrouped or cut differently; every message keeps its owner."] : [
      "| seq | message | user | live | candidate | verdict |",
      "|---:|---|---|---|---|---|",
      ...rows.map((m) =>
        `| ${m.seq} | ${cell(m.text)} | ${cell(placementText(m.label))} | ${cell(placementText(m.live))} | ${cell(placementText(m.candidate))} | ${m.verdict} |`
      )
    ]),
    ...r.evaluation.invariants.violations.map((v) => `- invariant broken: ${JSON.stringify(v)}`),
    ...(reminderLines(r.reminders).length === 0 ? [] : ["", ...reminderLines(r.reminders).map((line) => `- reminder ${cell(line)}`)]),
    ""
  ]
}

export const renderMarkdown = (run: RunInfo, summary: Summary, gate: Gate, results: ReadonlyArray<SessionReplay>): string => {
  const changed = compared(results).filter((r) => r.status === "changed" || r.evaluation.invariants.violations.length > 0)
  const problems = results.flatMap((r) => (r.status === "failed" || r.status === "skipped" ? [`- \`${r.sessionId}\` ${r.status}: ${r.error}`] : []))
  return [
    `### ${run.mode === "aa" ? "A/A replay" : "Replay"} under prompt \`${run.prompt.version}\` (\`${run.prompt.hash.slice(0, 12)}\`, ${run.models.join(", ") || "no model"}): **${gate.verdict}**`,
    "",
    `Agreement with the users' own outcome: **${percent(gate.agreement.shadow)}** (live plans ${percent(gate.agreement.live)}, ` +
    `noise floor ${percent(gate.noiseFloor)}). ${summary.sessions} session(s): ${summary.changed} changed, ${summary.unchanged} unchanged, ` +
    `${summary.failed} failed, ${summary.skipped} skipped. Invariant violations: ${gate.invariantViolations}. ` +
    `New people: ${gate.personCreations} (${gate.duplicatePeople} where the user had them). ` +
    `Tokens: ${tokens(summary.tokens.shadow)}${totalCost(summary)}, live plans ${tokens(summary.tokens.live)}. ` +
    `Time in model calls: ${latencyText(summary)}.` +
    (hasReminders(summary.reminders) ? ` Reminders: ${totalsText(summary.reminders)}.` : ""),
    ...gate.reasons.map((reason) => `- ${reason}`),
    "",
    "| plans | correct | wrong | asked | unlabelled |",
    "|---|---:|---:|---:|---:|",
    tallyRow("live", gate.live),
    tallyRow("candidate", gate.shadow),
    "",
    ...(changed.length === 0 ? ["No session changed."] : [`#### Changed sessions (${changed.length})`, ""]),
    ...changed.slice(0, shownSessions).flatMap(session),
    ...(changed.length > shownSessions ? [`… and ${changed.length - shownSessions} more in the JSON report.`] : []),
    ...problems,
    ""
  ].join("\n")
}

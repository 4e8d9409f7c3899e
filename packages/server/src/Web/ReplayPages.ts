/**
 * Replay reports on the pages: the kept runs of `verbatim replay --publish`, newest first, and one
 * report whole: the verdict and agreement with the users' own outcome, the summary, then per session the notes that moved, messages regrouped,
 * instructions cut differently, questions added or resolved, reminders added, lost or moved in
 * time (with what their users did with them), and tokens and cost.
 */
import * as ModelPrices from "@verbatim/planner/ModelPrices"
import type { ReplayReportBody, SessionReplayView } from "@verbatim/domain/ReplayReport"
import type { StoredReport } from "@verbatim/projections/ReplayReports"
import { DateTime, Option } from "effect"
import { hasReminders, reminderLines, totalsText } from "@verbatim/domain/Eval/ReminderText"
import { type Html, html } from "./Html.js"

const when = (time: DateTime.Utc) => DateTime.formatIso(time).replace("T", " ").slice(0, 16)

/** The kept reports. */
export const replaysPage = (reports: ReadonlyArray<StoredReport>): Html =>
  html`<h1>Replay reports</h1>
<p class="muted">What a prompt or model change would do to recorded sessions: <code>verbatim replay --prompt VERSION --publish</code> keeps a report here. Nothing live changes unless a run promotes it.</p>
${
    reports.length === 0
      ? html`<p class="muted">No reports kept yet.</p>`
      : html`<ul class="list">${reports.map((r) => html`<li><a href="/replays/${r.id}">${when(r.createdAt)} · prompt ${r.promptVersion}</a></li>`)}</ul>`
  }`

const groups = (gs: ReadonlyArray<ReadonlyArray<number>>) => gs.map((g) => `[${g.join(" ")}]`).join(" ") || "–"

const cost = (model: string, tokens: { readonly input: number; readonly output: number }) =>
  Option.match(ModelPrices.cost(model, tokens), { onNone: () => "", onSome: (d) => `, ${ModelPrices.formatDollars(d)}` })

const session = (s: SessionReplayView): Html => {
  if ("error" in s) {
    return html`<li data-replay-session="${s.status}"><a href="/sessions/${s.sessionId}">${s.sessionId}</a>: ${s.status}, ${s.error}</li>`
  }
  const d = s.diff
  const lines: Array<Html> = [
    ...d.moved.map((m) => html`<li>message ${m.seq} moved from ${m.from} to ${m.to}</li>`),
    ...(d.regrouped.before.length + d.regrouped.after.length > 0 ? [html`<li>regrouped: ${groups(d.regrouped.before)} &rarr; ${groups(d.regrouped.after)}</li>`] : []),
    ...d.cuts.removed.map((c) => html`<li>no longer cut from message ${c.seq}: <del class="cut">${c.text}</del></li>`),
    ...d.cuts.added.map((c) => html`<li>newly cut from message ${c.seq}: <del class="cut">${c.text}</del></li>`),
    ...d.questions.added.map((q) => html`<li>question added (${q.reason}): messages ${q.seqs.join(", ")}</li>`),
    ...d.questions.resolved.map((q) => html`<li>question resolved (${q.reason}): messages ${q.seqs.join(", ")}</li>`),
    ...(s.reminders === undefined ? [] : reminderLines(s.reminders).map((line) => html`<li data-reminder>reminder ${line}</li>`))
  ]
  return html`<li data-replay-session="${s.status}"><a href="/sessions/${s.sessionId}">${s.sessionId}</a>: ${s.status} <span class="muted">· ${s.model} · ${s.tokens.shadow.input} in / ${s.tokens.shadow.output} out${
    cost(s.model, s.tokens.shadow)
  } (live ${s.tokens.live.input} in / ${s.tokens.live.output} out)</span>${lines.length === 0 ? null : html`<ul>${lines}</ul>`}</li>`
}

/** One report: the summary first, then the sessions that changed, then the rest. */
export const replayPage = (report: StoredReport, body: ReplayReportBody): Html => {
  const s = body.summary
  const changed = body.sessions.filter((x) => x.status === "changed")
  const rest = body.sessions.filter((x) => x.status !== "changed")
  const g = body.gate
  const percent = (share: number) => `${(share * 100).toFixed(1)}%`
  return html`<h1>Replay under prompt ${s.promptVersion}</h1>
<p class="verdict" data-verdict="${g.verdict}"><strong>${g.verdict}</strong>: the candidate files ${percent(g.agreement.shadow)} of the messages where their users filed them, the live plans ${percent(g.agreement.live)}.</p>
${g.reasons.length === 0 ? null : html`<ul data-reasons>${g.reasons.map((r) => html`<li>${r}</li>`)}</ul>`}
<p class="muted">${when(report.createdAt)} · ${s.sessions} session${s.sessions === 1 ? "" : "s"}: ${s.changed} changed, ${s.unchanged} unchanged, ${s.failed} failed, ${s.skipped} skipped</p>
<dl class="summary" data-summary>
<dt>Notes moved between people</dt><dd>${s.moved}</dd>
<dt>Sessions regrouped</dt><dd>${s.regrouped}</dd>
<dt>Instructions cut differently</dt><dd>${s.cutsChanged}</dd>
<dt>Questions added, resolved</dt><dd>${s.questionsAdded}, ${s.questionsResolved}</dd>
${s.reminders === undefined || !hasReminders(s.reminders) ? null : html`<dt>Reminders</dt><dd>${totalsText(s.reminders)}</dd>`}
<dt>Tokens (candidate; live)</dt><dd>${s.tokens.shadow.input} in / ${s.tokens.shadow.output} out; ${s.tokens.live.input} in / ${s.tokens.live.output} out</dd>
</dl>
<h2>Changed</h2>
${changed.length === 0 ? html`<p class="muted">No session changed.</p>` : html`<ol class="list">${changed.map(session)}</ol>`}
${rest.length === 0 ? null : html`<h2>The others</h2><ol class="list">${rest.map(session)}</ol>`}`
}

/**
 * Replay reports on the pages: the kept runs of `verbatim replay --publish`, newest first, and one
 * report whole: the verdict and agreement with the users' own outcome, the summary, then per session the notes that moved, messages regrouped,
 * instructions cut differently, questions added or resolved, reminders added, lost or moved in
 * time (with what their users did with them), and tokens and cost. Those lines hold users' words
 * and names: of another user's session they are left out for an operator who does not read
 * other users' text (`VERBATIM_OPERATOR_READS=none`), and recorded as a read under `audited`.
 */
import * as ModelPrices from "@verbatim/planner/ModelPrices"
import type { SessionId } from "@verbatim/domain/Ids"
import { notReadMessage } from "@verbatim/domain/OperatorReads/Mode"
import { ReplayReportBody, type SessionReplayView } from "@verbatim/domain/ReplayReport"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import { ReplayReports, type StoredReport } from "@verbatim/projections/ReplayReports"
import { Effect, Option, Schema } from "effect"
import { OperatorReads } from "../OperatorReads.js"
import { hasReminders, reminderLines, totalsText } from "@verbatim/domain/Eval/ReminderText"
import { type Html, html } from "./Html.js"
import { timeAt } from "./Time.js"
import { param } from "./Routing.js"
import { signedIn } from "./Viewer.js"

/** The kept reports, each at its time in `zone`. */
export const replaysPage = (reports: ReadonlyArray<StoredReport>, zone: string): Html =>
  html`<h1>Replay reports</h1>
<p class="muted">What a prompt or model change would do to recorded sessions: <code>verbatim replay --prompt VERSION --publish</code> keeps a report here. Nothing live changes unless a run promotes it.</p>
${
    reports.length === 0
      ? html`<p class="muted">No reports kept yet.</p>`
      : html`<ul class="list">${reports.map((r) => html`<li><a href="/replays/${r.id}">${timeAt(r.createdAt, zone)} · prompt ${r.promptVersion}</a></li>`)}</ul>`
  }`

const groups = (gs: ReadonlyArray<ReadonlyArray<number>>) => gs.map((g) => `[${g.join(" ")}]`).join(" ") || "–"

const cost = (model: string, tokens: { readonly input: number; readonly output: number }) =>
  Option.match(ModelPrices.cost(model, tokens), { onNone: () => "", onSome: (d) => `, ${ModelPrices.formatDollars(d)}` })

const session = (detailed: (sessionId: SessionId) => boolean) => (s: SessionReplayView): Html => {
  if ("error" in s) {
    return html`<li data-replay-session="${s.status}"><a href="/sessions/${s.sessionId}">${s.sessionId}</a>: ${s.status}, ${s.error}</li>`
  }
  const d = s.diff
  const lines: Array<Html> = !detailed(s.sessionId) ? [] : [
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
  } (live ${s.tokens.live.input} in / ${s.tokens.live.output} out)</span>${
    detailed(s.sessionId) ? null : html` <span class="muted" data-withheld>(changes not shown)</span>`
  }${lines.length === 0 ? null : html`<ul>${lines}</ul>`}</li>`
}

/** One report: the summary first, then the sessions that changed, then the rest; `detailed`: whether a session's changes are shown. */
export const replayPage = (report: StoredReport, body: ReplayReportBody, zone: string, detailed: (sessionId: SessionId) => boolean = () => true): Html => {
  const s = body.summary
  const changed = body.sessions.filter((x) => x.status === "changed")
  const rest = body.sessions.filter((x) => x.status !== "changed")
  const g = body.gate
  const percent = (share: number) => `${(share * 100).toFixed(1)}%`
  return html`<h1>Replay under prompt ${s.promptVersion}</h1>
<p class="verdict" data-verdict="${g.verdict}"><strong>${g.verdict}</strong>: the candidate files ${percent(g.agreement.shadow)} of the messages where their users filed them, the live plans ${percent(g.agreement.live)}.</p>
${g.reasons.length === 0 ? null : html`<ul data-reasons>${g.reasons.map((r) => html`<li>${r}</li>`)}</ul>`}
<p class="muted">${timeAt(report.createdAt, zone)} · ${s.sessions} session${s.sessions === 1 ? "" : "s"}: ${s.changed} changed, ${s.unchanged} unchanged, ${s.failed} failed, ${s.skipped} skipped</p>
<dl class="summary" data-summary>
<dt>Notes moved between people</dt><dd>${s.moved}</dd>
<dt>Sessions regrouped</dt><dd>${s.regrouped}</dd>
<dt>Instructions cut differently</dt><dd>${s.cutsChanged}</dd>
<dt>Questions added, resolved</dt><dd>${s.questionsAdded}, ${s.questionsResolved}</dd>
${s.reminders === undefined || !hasReminders(s.reminders) ? null : html`<dt>Reminders</dt><dd>${totalsText(s.reminders)}</dd>`}
<dt>Tokens (candidate; live)</dt><dd>${s.tokens.shadow.input} in / ${s.tokens.shadow.output} out; ${s.tokens.live.input} in / ${s.tokens.live.output} out</dd>
</dl>
${body.sessions.every((x) => detailed(x.sessionId)) ? null : html`<p class="muted" data-withheld>Other users' sessions are shown without their changes: ${notReadMessage}</p>`}
<h2>Changed</h2>
${changed.length === 0 ? html`<p class="muted">No session changed.</p>` : html`<ol class="list">${changed.map(session(detailed))}</ol>`}
${rest.length === 0 ? null : html`<h2>The others</h2><ol class="list">${rest.map(session(detailed))}</ol>`}`
}

/** `/replays`: the kept reports, for the operator. */
export const replaysRoute = signedIn("Replay reports", "replays", ({ subject, zone }) =>
  subject._tag === "Operator"
    ? Effect.map(Effect.flatMap(ReplayReports, (r) => r.list(100)), (reports) => Option.some(replaysPage(reports, zone)))
    : Effect.succeed(Option.none()))

/** `/replays/:id`: one report, each session's changes shown as its user's text is to the operator. */
export const replayRoute = signedIn("Replay report", "replays", ({ subject, zone }) =>
  Effect.gen(function*() {
    const id = yield* param("id")
    const report = subject._tag === "Operator" ? yield* (yield* ReplayReports).get(id) : Option.none()
    const body = Option.flatMap(report, (r) => Schema.decodeUnknownOption(Schema.parseJson(ReplayReportBody))(r.body))
    if (Option.isNone(report) || Option.isNone(body)) return Option.none()
    const read = yield* SessionLookups
    const reads = yield* OperatorReads
    const users = new Map(
      yield* Effect.forEach(body.value.sessions, (s) => Effect.map(read.sessionUser(s.sessionId), (user) => [s.sessionId, Option.getOrNull(user)] as const))
    )
    const shown = yield* reads.shown(subject, body.value.sessions.flatMap((s) => {
      const user = users.get(s.sessionId)
      return user === null || user === undefined ? [] : [{ user, kind: "replay" as const, ids: [id, s.sessionId] }]
    }))
    // A session the read model does not know has no user to record a read for: its changes are shown under `all` alone.
    const detailed = (sessionId: SessionId) => {
      const user = users.get(sessionId)
      return user === null || user === undefined ? reads.mode === "all" : shown(user)
    }
    return Option.some(replayPage(report.value, body.value, zone, detailed))
  }), "replay report")

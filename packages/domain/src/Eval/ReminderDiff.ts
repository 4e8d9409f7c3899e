/**
 * The reminders a candidate plan proposes against the live plans': added, lost, or moved to
 * another local time, matched by reminder id (the same words of the same message), and each
 * change judged by the user's label when there is one. A side agrees with a kept reminder when it
 * proposes it at the time the user kept, and with a refused one when it does not propose it: a
 * change that loses the user's agreement is a regression, one that gains it an improvement. Pure;
 * the order of either side does not matter.
 */
import type { ReminderId } from "../Ids.js"
import type { ProposedReminder } from "../Reminders/FromPlan.js"
import type { ReminderLabel } from "./ReminderLabels.js"

/** A reminder as a side proposes it: its words, and its local due time (null: the time is asked). */
export interface ReminderView {
  readonly reminderId: ReminderId
  readonly seq: number
  readonly quote: string
  readonly local: string | null
}

/** What the user's label makes of a change: null when there is no label or it judges both sides alike. */
export type Judgement = "regression" | "improvement" | null

/** `done`: the user marked it done; `cancelled`: they cancelled it straight away. */
export type LabelName = "done" | "cancelled"

export interface ReminderChange {
  readonly seq: number
  readonly quote: string
  readonly local: string | null
  readonly label: LabelName | null
  readonly effect: Judgement
}

export interface ReminderMove {
  readonly seq: number
  readonly quote: string
  readonly from: string | null
  readonly to: string | null
  readonly label: LabelName | null
  readonly effect: Judgement
}

export interface ReminderDiff {
  readonly added: ReadonlyArray<ReminderChange>
  readonly lost: ReadonlyArray<ReminderChange>
  readonly moved: ReadonlyArray<ReminderMove>
  readonly unchanged: number
  /** Labelled reminders the live plans agree with and the candidate does not; and the other way round. */
  readonly regressions: number
  readonly improvements: number
}

/** The reminders of a side's proposals: the ones with words found (a quote not found names no reminder). */
export const reminderViews = (proposals: ReadonlyArray<ProposedReminder>): ReadonlyArray<ReminderView> =>
  proposals.flatMap((p) =>
    p._tag === "NotAQuote" ? [] : [{ reminderId: p.reminderId, seq: p.seq, quote: p.quote, local: p._tag === "Schedule" ? p.local : null }]
  )

const agrees = (label: ReminderLabel, view: ReminderView | undefined): boolean =>
  label._tag === "Refused" ? view === undefined : view !== undefined && view.local !== null && view.local === label.local

const judge = (label: ReminderLabel | undefined, live: ReminderView | undefined, candidate: ReminderView | undefined): Judgement => {
  if (label === undefined) return null
  const before = agrees(label, live)
  const after = agrees(label, candidate)
  return before === after ? null : before ? "regression" : "improvement"
}

const nameOf = (label: ReminderLabel | undefined): LabelName | null =>
  label === undefined ? null : label._tag === "Kept" ? "done" : "cancelled"

const byPlace = (a: { readonly seq: number; readonly quote: string }, b: { readonly seq: number; readonly quote: string }) =>
  a.seq - b.seq || (a.quote < b.quote ? -1 : a.quote > b.quote ? 1 : 0)

/** Compare the live plans' reminders with the candidate's, judged by the users' labels (by reminder id). */
export const diffReminders = (
  live: ReadonlyArray<ReminderView>,
  candidate: ReadonlyArray<ReminderView>,
  labels: ReadonlyMap<ReminderId, ReminderLabel>
): ReminderDiff => {
  const liveById = new Map(live.map((r) => [r.reminderId, r]))
  const candidateById = new Map(candidate.map((r) => [r.reminderId, r]))
  const change = (r: ReminderView, other: ReminderView | undefined, side: "live" | "candidate"): ReminderChange => {
    const label = labels.get(r.reminderId)
    const effect = side === "live" ? judge(label, r, other) : judge(label, other, r)
    return { seq: r.seq, quote: r.quote, local: r.local, label: nameOf(label), effect }
  }
  const added = [...candidateById.values()].filter((r) => !liveById.has(r.reminderId)).map((r) => change(r, undefined, "candidate"))
  const lost = [...liveById.values()].filter((r) => !candidateById.has(r.reminderId)).map((r) => change(r, undefined, "live"))
  const both = [...liveById.values()].flatMap((r) => {
    const other = candidateById.get(r.reminderId)
    return other === undefined ? [] : [{ live: r, candidate: other }]
  })
  const moved = both.filter((p) => p.live.local !== p.candidate.local).map(({ candidate: to, live: from }): ReminderMove => {
    const label = labels.get(from.reminderId)
    return { seq: from.seq, quote: from.quote, from: from.local, to: to.local, label: nameOf(label), effect: judge(label, from, to) }
  })
  const effects = [...added, ...lost, ...moved].map((c) => c.effect)
  return {
    added: added.sort(byPlace),
    lost: lost.sort(byPlace),
    moved: moved.sort(byPlace),
    unchanged: both.length - moved.length,
    regressions: effects.filter((e) => e === "regression").length,
    improvements: effects.filter((e) => e === "improvement").length
  }
}

/** Whether the candidate proposes the same reminders at the same times. */
export const remindersUnchanged = (diff: ReminderDiff): boolean =>
  diff.added.length === 0 && diff.lost.length === 0 && diff.moved.length === 0

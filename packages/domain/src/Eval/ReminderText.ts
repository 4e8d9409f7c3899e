/** A replay's reminder changes in words, the same in the text and Markdown reports, JUnit and the web page. */
import type { Judgement, LabelName, ReminderChange, ReminderDiff, ReminderMove } from "./ReminderDiff.js"

/** A local due time, or that the time is asked of the user. */
export const dueText = (local: string | null): string => (local === null ? "(time asked)" : local)

const labelText: Record<LabelName, string> = { done: "the user marked it done", cancelled: "the user cancelled it straight away" }

/** ` (the user marked it done: a regression)`, or nothing for a reminder the user left no word on. */
export const judged = (c: { readonly label: LabelName | null; readonly effect: Judgement }): string =>
  c.label === null ? "" : ` (${labelText[c.label]}${c.effect === null ? "" : `: ${c.effect === "regression" ? "a regression" : "an improvement"}`})`

const words = (c: { readonly seq: number; readonly quote: string }) => `seq ${c.seq} ${JSON.stringify(c.quote)}`

/** One line per change: `added: seq 4 "book the dentist" due 2026-04-01T09:00`. */
export const reminderLines = (diff: Pick<ReminderDiff, "added" | "lost" | "moved">): ReadonlyArray<string> => [
  ...diff.added.map((c: ReminderChange) => `added: ${words(c)} due ${dueText(c.local)}${judged(c)}`),
  ...diff.lost.map((c: ReminderChange) => `lost: ${words(c)} due ${dueText(c.local)}${judged(c)}`),
  ...diff.moved.map((m: ReminderMove) => `moved: ${words(m)} from ${dueText(m.from)} to ${dueText(m.to)}${judged(m)}`)
]

/** Totals over sessions. */
export interface ReminderTotals {
  readonly added: number
  readonly lost: number
  readonly moved: number
  readonly unchanged: number
  readonly regressions: number
  readonly improvements: number
}

export const reminderTotals = (diffs: ReadonlyArray<ReminderDiff>): ReminderTotals => ({
  added: diffs.reduce((n, d) => n + d.added.length, 0),
  lost: diffs.reduce((n, d) => n + d.lost.length, 0),
  moved: diffs.reduce((n, d) => n + d.moved.length, 0),
  unchanged: diffs.reduce((n, d) => n + d.unchanged, 0),
  regressions: diffs.reduce((n, d) => n + d.regressions, 0),
  improvements: diffs.reduce((n, d) => n + d.improvements, 0)
})

/** Whether either side proposed any reminder: a run without any says nothing of them. */
export const hasReminders = (t: ReminderTotals): boolean => t.added + t.lost + t.moved + t.unchanged > 0

/** `1 added, 1 lost, 1 moved, 2 unchanged; by what the users did: 1 regression, 1 improvement`. */
export const totalsText = (t: ReminderTotals): string =>
  `${t.added} added, ${t.lost} lost, ${t.moved} moved, ${t.unchanged} unchanged; ` +
  `by what the users did: ${t.regressions} regression(s), ${t.improvements} improvement(s)`

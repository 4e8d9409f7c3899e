/**
 * A plan's reminders scored against the ones a case expects: a proposal matches an expected
 * reminder when it quotes the same words of the same message and falls due at the same local
 * time. Precision is the share of proposals that match, recall the share of expected reminders
 * proposed. A proposal whose time is asked matches nothing: the expected time was clear.
 */
import type { ReminderView } from "./ReminderDiff.js"

/** A reminder a case expects: the message, its exact words, and `YYYY-MM-DDTHH:MM` on the sender's clock. */
export interface ExpectedReminder {
  readonly seq: number
  readonly quote: string
  readonly due: string
}

export interface ReminderScore {
  readonly expected: number
  readonly proposed: number
  readonly matched: number
  /** Expected reminders no proposal matches. */
  readonly missed: ReadonlyArray<ExpectedReminder>
  /** Proposals no expected reminder matches. */
  readonly unexpected: ReadonlyArray<ReminderView>
}

export const emptyReminderScore: ReminderScore = { expected: 0, proposed: 0, matched: 0, missed: [], unexpected: [] }

const keyOf = (seq: number, quote: string, local: string | null) => JSON.stringify([seq, quote, local])

/** Score a plan's reminders (each proposal once) against the expected ones. */
export const scoreReminders = (expected: ReadonlyArray<ExpectedReminder>, proposed: ReadonlyArray<ReminderView>): ReminderScore => {
  const wanted = new Set(expected.map((e) => keyOf(e.seq, e.quote, e.due)))
  const given = new Set(proposed.map((p) => keyOf(p.seq, p.quote, p.local)))
  const unexpected = proposed.filter((p) => !wanted.has(keyOf(p.seq, p.quote, p.local)))
  return {
    expected: expected.length,
    proposed: proposed.length,
    matched: proposed.length - unexpected.length,
    missed: expected.filter((e) => !given.has(keyOf(e.seq, e.quote, e.due))),
    unexpected
  }
}

/** Two scores' counts together (the lists are per case and not carried). */
export const addReminderScores = (a: ReminderScore, b: ReminderScore): ReminderScore => ({
  expected: a.expected + b.expected,
  proposed: a.proposed + b.proposed,
  matched: a.matched + b.matched,
  missed: [],
  unexpected: []
})

/** The share of proposals that match (1 when nothing was proposed). */
export const precision = (score: ReminderScore): number => (score.proposed === 0 ? 1 : score.matched / score.proposed)

/** The share of expected reminders proposed (1 when none was expected). */
export const recall = (score: ReminderScore): number => (score.expected === 0 ? 1 : score.matched / score.expected)

/**
 * A candidate plan scored against a session's labels, message by message: filed where the user
 * filed it (correct), filed elsewhere (wrong), parked as a question the user would have to answer
 * (asked), or a message the user accepted no place for (unlabelled).
 */
import type { Decisions } from "../ApplyPlan/ApplyPlan.js"
import type { QuestionReason } from "../Decision.js"
import { type Directory, resolveOwner, sameTarget, type Target } from "./Directory.js"
import type { Basis, SessionLabels } from "./Labels.js"

/** Where a candidate puts a message: a place, a question, or nowhere (a plan that lost it). */
export type Placement = Target | { readonly _tag: "Question"; readonly reason: QuestionReason } | { readonly _tag: "Missing" }

export type Verdict = "correct" | "wrong" | "asked" | "unlabelled"

export interface MessageScore {
  readonly seq: number
  readonly label: Target | null
  readonly basis: Basis
  readonly candidate: Placement
  readonly verdict: Verdict
}

export interface Tally {
  readonly correct: number
  readonly wrong: number
  readonly asked: number
  readonly unlabelled: number
}

export interface SessionScore {
  readonly messages: ReadonlyArray<MessageScore>
  readonly tally: Tally
}

export const emptyTally: Tally = { correct: 0, wrong: 0, asked: 0, unlabelled: 0 }

export const addTallies = (a: Tally, b: Tally): Tally => ({
  correct: a.correct + b.correct,
  wrong: a.wrong + b.wrong,
  asked: a.asked + b.asked,
  unlabelled: a.unlabelled + b.unlabelled
})

/** The share of labelled messages filed where the user filed them (1 when none is labelled). */
export const agreement = (tally: Tally): number => {
  const labelled = tally.correct + tally.wrong + tally.asked
  return labelled === 0 ? 1 : tally.correct / labelled
}

/** Where the decisions of a plan's chunks put each seq. */
export const placements = (chunks: ReadonlyArray<Decisions>, people: Directory): ReadonlyMap<number, Placement> => {
  const placed = new Map<number, Placement>()
  for (const decisions of chunks) {
    for (const note of decisions.notes) for (const seq of note.seqs) placed.set(seq, resolveOwner(people, note.owner))
    for (const question of decisions.questions) for (const seq of question.seqs) placed.set(seq, { _tag: "Question", reason: question.reason })
    for (const i of decisions.instructions) if (i.kind === "message") placed.set(i.seq, { _tag: "Bot" })
  }
  return placed
}

/** Whether two placements are the same (any two questions are). */
export const samePlacement = (a: Placement, b: Placement): boolean =>
  a._tag === "Question" || a._tag === "Missing" || b._tag === "Question" || b._tag === "Missing" ? a._tag === b._tag : sameTarget(a, b)

const verdictOf = (label: Target | null, candidate: Placement): Verdict => {
  if (label === null) return "unlabelled"
  if (candidate._tag === "Question") return "asked"
  return candidate._tag !== "Missing" && sameTarget(label, candidate) ? "correct" : "wrong"
}

/** Scores a candidate's decisions (one per chunk) against the labels. */
export const scoreSession = (labels: SessionLabels, chunks: ReadonlyArray<Decisions>, people: Directory): SessionScore => {
  const placed = placements(chunks, people)
  const messages = labels.messages.map((m): MessageScore => {
    const candidate = placed.get(m.seq) ?? { _tag: "Missing" }
    return { seq: m.seq, label: m.target, basis: m.basis, candidate, verdict: verdictOf(m.target, candidate) }
  })
  const tally = messages.reduce((t, m) => ({ ...t, [m.verdict]: t[m.verdict] + 1 }), emptyTally)
  return { messages, tally }
}

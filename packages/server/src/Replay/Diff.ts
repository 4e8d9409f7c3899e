/**
 * What changed between a session's live decisions and its shadow decisions: notes moved between
 * people, messages regrouped, instructions cut differently, questions added or resolved. Pure;
 * the order of notes or questions in either input does not matter.
 */
import type { Decisions } from "@verbatim/domain/ApplyPlan/ApplyPlan"
import type { Owner, QuestionReason } from "@verbatim/domain/Decision"

/** A message whose note changed owner. */
export interface Move {
  readonly seq: number
  readonly from: string
  readonly to: string
}

/** Text addressed to the bot: a directive cut from a message, or a whole message. */
export interface Cut {
  readonly seq: number
  readonly kind: "message" | "directive"
  readonly text: string
}

export interface QuestionChange {
  readonly seqs: ReadonlyArray<number>
  readonly reason: QuestionReason
}

/** The differences for one session; all empty means the decisions are the same. */
export interface DecisionDiff {
  readonly moved: ReadonlyArray<Move>
  /** Groups of seqs that make one note, only on one side (each group ascending, groups by first seq). */
  readonly regrouped: { readonly before: ReadonlyArray<ReadonlyArray<number>>; readonly after: ReadonlyArray<ReadonlyArray<number>> }
  readonly cuts: { readonly removed: ReadonlyArray<Cut>; readonly added: ReadonlyArray<Cut> }
  readonly questions: { readonly added: ReadonlyArray<QuestionChange>; readonly resolved: ReadonlyArray<QuestionChange> }
}

/** Who an owner is, as a person would read it. */
export const ownerLabel = (owner: Owner): string => (owner._tag === "Unattached" ? "(unattached)" : owner.name)

const ownerKey = (owner: Owner): string =>
  owner._tag === "Unattached" ? "" : owner.contactId ?? `name:${owner.name.trim().toLowerCase()}`

const merged = (all: ReadonlyArray<Decisions>): Decisions => ({
  notes: all.flatMap((d) => d.notes),
  questions: all.flatMap((d) => d.questions),
  instructions: all.flatMap((d) => d.instructions),
  warnings: all.flatMap((d) => d.warnings)
})

const byFirst = (a: ReadonlyArray<number>, b: ReadonlyArray<number>) => a[0]! - b[0]!

const onlyIn = <A>(xs: ReadonlyArray<A>, ys: ReadonlyArray<A>, key: (a: A) => string): Array<A> => {
  const other = new Set(ys.map(key))
  return xs.filter((x) => !other.has(key(x)))
}

/** Compare live decisions (one per live plan chunk) with shadow ones (one per shadow chunk). */
export const diffDecisions = (liveChunks: ReadonlyArray<Decisions>, shadowChunks: ReadonlyArray<Decisions>): DecisionDiff => {
  const live = merged(liveChunks)
  const shadow = merged(shadowChunks)
  const ownerOf = (d: Decisions) => new Map(d.notes.flatMap((n) => n.seqs.map((seq) => [seq, n.owner] as const)))
  const liveOwners = ownerOf(live)
  const moved: Array<Move> = []
  for (const [seq, to] of [...ownerOf(shadow)].sort(([a], [b]) => a - b)) {
    const from = liveOwners.get(seq)
    if (from !== undefined && ownerKey(from) !== ownerKey(to)) moved.push({ seq, from: ownerLabel(from), to: ownerLabel(to) })
  }
  const groups = (d: Decisions) => d.notes.map((n) => [...n.seqs].sort((a, b) => a - b)).sort(byFirst)
  const groupKey = (g: ReadonlyArray<number>) => g.join(",")
  const cuts = (d: Decisions): Array<Cut> =>
    d.instructions.map((i) => ({ seq: i.seq, kind: i.kind, text: i.text })).sort((a, b) => a.seq - b.seq)
  const cutKey = (c: Cut) => `${c.seq}\u0000${c.kind}\u0000${c.text}`
  const questions = (d: Decisions): Array<QuestionChange> =>
    d.questions.map((q) => ({ seqs: [...q.seqs].sort((a, b) => a - b), reason: q.reason })).sort((a, b) => byFirst(a.seqs, b.seqs))
  const questionKey = (q: QuestionChange) => `${q.reason}:${q.seqs.join(",")}`
  return {
    moved,
    regrouped: {
      before: onlyIn(groups(live), groups(shadow), groupKey),
      after: onlyIn(groups(shadow), groups(live), groupKey)
    },
    cuts: { removed: onlyIn(cuts(live), cuts(shadow), cutKey), added: onlyIn(cuts(shadow), cuts(live), cutKey) },
    questions: {
      added: onlyIn(questions(shadow), questions(live), questionKey),
      resolved: onlyIn(questions(live), questions(shadow), questionKey)
    }
  }
}

/** Whether a diff found anything. */
export const isEmpty = (diff: DecisionDiff): boolean =>
  diff.moved.length === 0 && diff.regrouped.before.length === 0 && diff.regrouped.after.length === 0 &&
  diff.cuts.removed.length === 0 && diff.cuts.added.length === 0 &&
  diff.questions.added.length === 0 && diff.questions.resolved.length === 0

/**
 * What a user corrected by hand in the notes of plans about to be superseded: the boundaries they
 * cut, the notes they set aside, the owners they chose, and the corrections already turned into
 * questions and still open. A promoted plan carries each of them (`Carry.ts`); none is dropped.
 */
import type { Candidate, Owner } from "../Decision.js"
import type { MessageId, NoteId, PersonId, PlanId, QuestionId } from "../Ids.js"
import type { Cut } from "./NoteState.js"
import type { Event } from "../Events.js"
import { fold, type SessionState } from "./State.js"

export type Source = { readonly messageId: MessageId; readonly seq: number }

/** One superseded note the user curated, as it stands. */
export interface Curated {
  readonly from: NoteId
  readonly sources: ReadonlyArray<Source>
  readonly owner: Owner
  readonly personId: PersonId | null
  /** The owner was chosen by hand. */
  readonly moved: boolean
  readonly discarded: boolean
  /** The split that began it. */
  readonly cut: Cut | null
}

/** A correction turned into a question by an earlier promotion and not answered yet. */
export interface Pending {
  readonly from: QuestionId
  readonly sources: ReadonlyArray<Source>
  /** The user's choice first, then the plan's. */
  readonly candidates: ReadonlyArray<Candidate>
}

export interface Corrections {
  readonly notes: ReadonlyArray<Curated>
  readonly pending: ReadonlyArray<Pending>
}

/** Each correction of a note, counted apart: a note both split off and moved holds two. */
export type CorrectionKind = "split" | "move" | "discard" | "question"

/** The corrections in the notes and open questions of `plans`, in the order of their first message. */
export const correctionsOf = (state: SessionState, plans: ReadonlyArray<PlanId>): Corrections => {
  const notes = [...state.notes.values()]
    .filter((n) => n.planId !== null && plans.includes(n.planId) && (n.moved || n.discarded || n.cut !== null) && n.sources.length > 0)
    .map((n): Curated => ({
      from: n.noteId,
      sources: n.sources,
      owner: n.owner,
      personId: n.personId,
      moved: n.moved,
      discarded: n.discarded,
      cut: n.cut
    }))
    .sort((a, b) => a.sources[0]!.seq - b.sources[0]!.seq)
  const pending = [...state.questions.values()]
    .filter((q) => q.reason === "corrected" && q.status === "open" && q.planId !== null && plans.includes(q.planId))
    .map((q): Pending => ({ from: q.questionId, sources: q.sources, candidates: q.candidates }))
  return { notes, pending }
}

/** The kinds of correction a curated note holds. */
export const kindsOf = (note: Curated): ReadonlyArray<CorrectionKind> => [
  ...(note.cut === null ? [] : ["split" as const]),
  ...(note.moved ? ["move" as const] : []),
  ...(note.discarded ? ["discard" as const] : [])
]

/** How many corrections there are to carry. */
export const countCorrections = (corrections: Corrections): number =>
  corrections.notes.reduce((n, note) => n + kindsOf(note).length, 0) + corrections.pending.length

const sameSet = (a: ReadonlyArray<Source>, b: ReadonlyArray<Source>): boolean =>
  a.length === b.length && a.every((s) => b.some((t) => t.messageId === s.messageId))

/**
 * The corrections of `before`'s live plans that are neither in effect nor asked in `after`,
 * described; empty when a promotion kept them all. In effect: a cut's two messages in different
 * notes (or none); a discard's messages a discarded note of their own, under the owner chosen; a
 * move's messages all under that person. Asked: an open `corrected` question of those messages.
 */
export const unkept = (before: SessionState, after: SessionState): ReadonlyArray<string> => {
  const { notes, pending } = correctionsOf(before, before.appliedPlans)
  const live = [...after.notes.values()]
  const asked = (sources: ReadonlyArray<Source>) =>
    [...after.questions.values()].some((q) => q.status === "open" && q.reason === "corrected" && sameSet(q.sources, sources))
  const noteOf = (messageId: MessageId) => live.find((n) => n.sources.some((s) => s.messageId === messageId))
  const problems: Array<string> = []
  for (const f of notes) {
    const cutNote = f.cut === null ? undefined : noteOf(f.cut.before)
    if (cutNote !== undefined && cutNote === noteOf(f.sources[0]!.messageId)) problems.push(`the cut before message ${f.cut!.seq} of ${f.from}`)
    if (f.discarded) {
      const kept = live.find((n) => n.discarded && sameSet(n.sources, f.sources))
      if (kept === undefined || (f.moved && kept.personId !== f.personId)) problems.push(`the discard of ${f.from}`)
    } else if (f.moved && !asked(f.sources) && !f.sources.every((s) => noteOf(s.messageId)?.personId === f.personId)) {
      problems.push(`the move of ${f.from}`)
    }
  }
  for (const p of pending) if (!asked(p.sources)) problems.push(`the question ${p.from}`)
  return problems
}

/** What a promotion did with a session's corrections. */
export interface Promotion {
  readonly corrections: number
  /** Re-applied to the new notes by a curation event of their own. */
  readonly reapplied: number
  /** In effect without one: the new plan already did what the user had. */
  readonly already: number
  /** Turned into questions to the user. */
  readonly asked: number
  /** Neither in effect nor asked, described: always empty, and said if not. */
  readonly lost: ReadonlyArray<string>
}

/** What promoting `before` with the events a re-plan decided did with its corrections. */
export const promotion = (before: SessionState, decided: ReadonlyArray<Event>): Promotion => {
  const corrections = countCorrections(correctionsOf(before, before.appliedPlans))
  const asked = decided.filter((e) => e._tag === "QuestionParked" && e.reason === "corrected").length
  const reapplied = decided.filter((e) => (e._tag === "NoteMoved" || e._tag === "NoteSplit" || e._tag === "NoteDiscarded") && e.carriedFrom !== undefined).length
  return { corrections, reapplied, already: Math.max(0, corrections - asked - reapplied), asked, lost: unkept(before, fold(decided, before)) }
}

/**
 * What a user corrected by hand in the notes of plans about to be superseded: the boundaries they
 * cut, the notes they set aside, the owners they chose, and the corrections already turned into
 * questions and still open. A promoted plan carries each of them (`Carry.ts`); none is dropped.
 */
import type { Candidate, Owner } from "../Decision.js"
import type { MessageId, NoteId, PersonId, PlanId, QuestionId } from "../Ids.js"
import type { Cut } from "./NoteState.js"
import type { SessionState } from "./State.js"

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

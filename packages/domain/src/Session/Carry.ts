/**
 * A promoted plan keeps its user's corrections. Each correction of a superseded plan's notes is
 * re-applied to the new plan's notes where it still means the same thing, and asked where not:
 * - a split: the same boundary, between the same two messages. A new note holding both is cut
 *   there; when none does, the boundary holds already.
 * - a discard: the same messages set aside. A new note of exactly those messages is discarded;
 *   otherwise they leave the new notes for a note of their own, discarded (a restore brings it
 *   back under the owner the user had).
 * - a move: the same messages under the same person (by id, which survives renames and merges).
 *   A new note of exactly those messages is moved; messages all under that person already need
 *   nothing; otherwise the new plan grouped them differently, and they leave its notes for a
 *   question (`corrected`) naming the user's choice and the plan's.
 * - a correction asked by an earlier promotion and still open is asked again.
 * Answers need nothing (never planned again). Taking messages out can spoil a fit found before,
 * so the fits are found again until no more corrections need asking.
 */
import type { Candidate, DirectiveCut, Owner, QuestionReason } from "../Decision.js"
import type { Event } from "../Events.js"
import { type IdSupply, NoteId, type PersonId, type PlanId, QuestionId, type SessionId } from "../Ids.js"
import type { DateTime } from "effect"
import { type CorrectionKind, type Corrections, type Curated, type Source } from "./Corrections.js"

/** A note the new plan files, not recorded yet. */
export interface DraftNote {
  readonly noteId: NoteId
  readonly planId: PlanId
  readonly owner: Owner
  readonly personId: PersonId | null
  readonly sources: ReadonlyArray<Source>
  readonly directives: ReadonlyArray<DirectiveCut>
  readonly mergedFrom: number
}

/** A question the new plan parks, not recorded yet. */
export interface DraftQuestion {
  readonly questionId: QuestionId
  readonly planId: PlanId
  readonly reason: QuestionReason
  readonly sources: ReadonlyArray<Source>
  readonly candidates: ReadonlyArray<Candidate>
}

export interface CarryContext {
  readonly sessionId: SessionId
  readonly now: DateTime.Utc
  readonly ids: IdSupply
  /** The user's person an owner names (a new one when none). */
  readonly resolve: (owner: Owner) => PersonId | null
  /** A person's name now. */
  readonly nameOf: (personId: PersonId) => string | undefined
  /** The new plan whose chunk holds a message. */
  readonly planOf: (seq: number) => PlanId
}

export interface Outcome { readonly kind: CorrectionKind; readonly from: string; readonly result: "applied" | "in-effect" | "asked" }

export interface Carried {
  readonly notes: ReadonlyArray<DraftNote>
  readonly questions: ReadonlyArray<DraftQuestion>
  /** Curation events on the new notes, recorded after them. */
  readonly after: ReadonlyArray<Event>
  /** The messages taken out of the new plan's notes and questions: a whole-message instruction of theirs is dropped too. */
  readonly taken: ReadonlySet<string>
  readonly outcomes: ReadonlyArray<Outcome>
}

type Piece = { readonly noteId: NoteId; readonly personId: PersonId | null; readonly sources: ReadonlyArray<Source> }

const sameMessages = (a: ReadonlyArray<Source>, b: ReadonlyArray<Source>): boolean =>
  a.length === b.length && a.every((s, i) => s.messageId === b[i]!.messageId)

const bySeq = (sources: ReadonlyArray<Source>): ReadonlyArray<Source> => [...sources].sort((a, b) => a.seq - b.seq)

type Choice = { readonly owner: Candidate; readonly personId: PersonId | null }

/** The user's choice for a curated note, as a question offers it: the person by id, under their name now. */
const chosen = (note: Curated, context: CarryContext): Choice => {
  if (note.owner._tag === "Unattached") return { owner: note.owner, personId: null }
  const personId = context.resolve(note.personId === null ? note.owner : { ...note.owner, contactId: note.personId })
  return personId === null
    ? { owner: { _tag: "Unattached" }, personId }
    : { owner: { _tag: "Person", contactId: personId, name: context.nameOf(personId) ?? note.owner.name }, personId }
}

const sameCandidate = (a: Candidate, b: Candidate): boolean =>
  a._tag === "Unattached" || b._tag === "Unattached"
    ? a._tag === b._tag
    : (a.contactId !== null && a.contactId === b.contactId) || a.name === b.name

/** The fits of every correction not in `asked`, with the pieces the new notes end as. */
const attempt = (
  corrections: Corrections,
  drafts: ReadonlyArray<DraftNote>,
  asked: ReadonlySet<string>,
  context: CarryContext,
  fresh: () => NoteId
) => {
  const gone = new Set([
    ...corrections.notes.filter((n) => asked.has(n.from)).flatMap((n) => n.sources.map((s) => s.messageId)),
    ...corrections.pending.flatMap((p) => p.sources.map((s) => s.messageId))
  ])
  const pieces = new Map<NoteId, Piece>()
  for (const d of drafts) {
    const sources = bySeq(d.sources.filter((s) => !gone.has(s.messageId)))
    if (sources.length > 0) pieces.set(d.noteId, { noteId: d.noteId, personId: d.personId, sources })
  }
  const holding = (messageId: string) => [...pieces.values()].find((p) => p.sources.some((s) => s.messageId === messageId))
  const after: Array<Event> = []
  const outcomes: Array<Outcome> = []
  const unfit: Array<string> = []
  const live = corrections.notes.filter((n) => !asked.has(n.from))
  for (const note of live) {
    const cut = note.cut
    if (cut === null) continue
    const into = holding(note.sources[0]!.messageId)
    if (into === undefined || !into.sources.some((s) => s.messageId === cut.before)) {
      outcomes.push({ kind: "split", from: note.from, result: "in-effect" })
      continue
    }
    const newNoteId = fresh()
    const later = into.sources.filter((s) => s.seq >= cut.seq)
    pieces.set(into.noteId, { ...into, sources: into.sources.filter((s) => s.seq < cut.seq) })
    pieces.set(newNoteId, { ...into, noteId: newNoteId, sources: later })
    after.push({ _tag: "NoteSplit", noteId: into.noteId, newNoteId, sessionId: context.sessionId, sources: later, splitAt: context.now, carriedFrom: note.from })
    outcomes.push({ kind: "split", from: note.from, result: "applied" })
  }
  for (const note of live) {
    if (!note.moved && !note.discarded) continue
    const piece = [...pieces.values()].find((p) => sameMessages(p.sources, note.sources))
    const { owner, personId } = chosen(note, context)
    if (piece === undefined) {
      const under = note.sources.every((s) => holding(s.messageId)?.personId === personId)
      if (note.discarded || !under) unfit.push(note.from)
      else outcomes.push({ kind: "move", from: note.from, result: "in-effect" })
      continue
    }
    if (note.moved) {
      if (piece.personId === personId) outcomes.push({ kind: "move", from: note.from, result: "in-effect" })
      else {
        after.push({ _tag: "NoteMoved", noteId: piece.noteId, sessionId: context.sessionId, personId, owner, movedAt: context.now, carriedFrom: note.from })
        outcomes.push({ kind: "move", from: note.from, result: "applied" })
      }
    }
    if (note.discarded) {
      after.push({ _tag: "NoteDiscarded", noteId: piece.noteId, sessionId: context.sessionId, discardedAt: context.now, carriedFrom: note.from })
      outcomes.push({ kind: "discard", from: note.from, result: "applied" })
    }
  }
  return { pieces, gone, after, outcomes, unfit }
}

/** The new plan's notes and questions with the corrections carried, and what became of each. */
export const carry = (
  corrections: Corrections,
  drafts: ReadonlyArray<DraftNote>,
  questions: ReadonlyArray<DraftQuestion>,
  context: CarryContext
): Carried => {
  // Fits are found with throwaway ids, and once more with real ones when the questions are known.
  const asked = new Set<string>()
  let scratch = 0
  const throwaway = () => NoteId.make(`carry-${++scratch}`)
  for (let trial = attempt(corrections, drafts, asked, context, throwaway); trial.unfit.length > 0;) {
    for (const from of trial.unfit) asked.add(from)
    trial = attempt(corrections, drafts, asked, context, throwaway)
  }
  const found = attempt(corrections, drafts, asked, context, () => NoteId.make(context.ids.next("note")))
  const { gone } = found
  const keptNotes = drafts.flatMap((d) => {
    const sources = d.sources.filter((s) => !gone.has(s.messageId))
    return sources.length === 0 ? [] : [{ ...d, sources, directives: d.directives.filter((c) => !gone.has(c.messageId)) }]
  })
  const keptQuestions = questions.flatMap((q) => {
    const sources = q.sources.filter((s) => !gone.has(s.messageId))
    return sources.length === 0 ? [] : [{ ...q, sources }]
  })
  const planned = (sources: ReadonlyArray<Source>): ReadonlyArray<Candidate> => {
    const ids = new Set(sources.map((s) => s.messageId))
    return drafts.filter((d) => d.sources.some((s) => ids.has(s.messageId))).map((d) => d.owner)
  }
  const ask = (sources: ReadonlyArray<Source>, first: Candidate): DraftQuestion => {
    const candidates = [first, ...planned(sources)].filter((c, i, all) => all.findIndex((o) => sameCandidate(o, c)) === i)
    const ordered = bySeq(sources)
    return { questionId: QuestionId.make(context.ids.next("q")), planId: context.planOf(ordered[0]!.seq), reason: "corrected", sources: ordered, candidates }
  }
  const extraNotes: Array<DraftNote> = []
  const extraQuestions: Array<DraftQuestion> = []
  const after = [...found.after]
  const outcomes = [...found.outcomes]
  for (const note of corrections.notes.filter((n) => asked.has(n.from))) {
    if (note.cut !== null) outcomes.push({ kind: "split", from: note.from, result: "in-effect" })
    const { owner, personId } = chosen(note, context)
    if (!note.discarded) {
      extraQuestions.push(ask(note.sources, owner))
      outcomes.push({ kind: "move", from: note.from, result: "asked" })
      continue
    }
    const noteId = NoteId.make(context.ids.next("note"))
    const ids = new Set(note.sources.map((s) => s.messageId))
    extraNotes.push({
      noteId,
      planId: context.planOf(note.sources[0]!.seq),
      owner,
      personId,
      sources: note.sources,
      directives: drafts.flatMap((d) => d.directives.filter((c) => ids.has(c.messageId))),
      mergedFrom: 1
    })
    after.push({ _tag: "NoteDiscarded", noteId, sessionId: context.sessionId, discardedAt: context.now, carriedFrom: note.from })
    if (note.moved) outcomes.push({ kind: "move", from: note.from, result: "applied" })
    outcomes.push({ kind: "discard", from: note.from, result: "applied" })
  }
  for (const pending of corrections.pending) {
    extraQuestions.push(ask(pending.sources, pending.candidates[0] ?? { _tag: "Unattached" }))
    outcomes.push({ kind: "question", from: pending.from, result: "asked" })
  }
  return { notes: [...keptNotes, ...extraNotes], questions: [...keptQuestions, ...extraQuestions], after, taken: gone, outcomes }
}
